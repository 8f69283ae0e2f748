import { SUBSCRIBER_CHANNEL_PREFIX } from "../routing/subscriber.js";
import { RECORD_VERSION } from "./outbox-records.js";
import { PARKED_KEPT, SEEN_KEPT } from "./retention.js";
const TRIM_SEEN = `
local function trim_seen(key)
  redis.call('ZREMRANGEBYRANK', key, 0, -${SEEN_KEPT + 1})
end
`;
const MARK_WORK = `
local function mark_work(key, channel)
  if string.sub(channel, 1, ${SUBSCRIBER_CHANNEL_PREFIX.length}) == '${SUBSCRIBER_CHANNEL_PREFIX}' then redis.call('SADD', key, channel) end
end
`;
const FORGET_IDLE_SCRIPT = `
if redis.call('ZCARD', KEYS[2]) > 0 or redis.call('EXISTS', KEYS[3]) == 1 then return 0 end
return redis.call('SREM', KEYS[1], ARGV[1])
`;
const NOW_MS = `
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
`;
const ENQUEUE_SCRIPT = `${NOW_MS}${TRIM_SEEN}${MARK_WORK}
local now = now_ms()
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - tonumber(ARGV[4]))
if redis.call('ZADD', KEYS[3], 'NX', now, ARGV[1]) == 0 then return 0 end
trim_seen(KEYS[3])
local ready = ARGV[3] == '' and now or tonumber(ARGV[3])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[1], ready, ARGV[1])
mark_work(KEYS[4], ARGV[6])
redis.call('PUBLISH', ARGV[5], ARGV[6])
return 1
`;
const CLAIM_SCRIPT = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if redis.call('EXISTS', KEYS[2]) == 1 then return -1 end
for i = 3, #ARGV do
  redis.call('ZREM', KEYS[3], ARGV[i])
  redis.call('HDEL', KEYS[4], ARGV[i])
end
redis.call('SET', KEYS[2], ARGV[2])
return 1
`;
const UPDATE_INFLIGHT_SCRIPT = `
local stored = redis.call('GET', KEYS[2])
if not stored or not string.find(stored, ARGV[2], 1, true) then return 0 end
local claimant = ARGV[4] ~= '' and string.find(stored, ARGV[4], 1, true)
if redis.call('GET', KEYS[1]) ~= ARGV[1] and not claimant then return 0 end
redis.call('SET', KEYS[2], ARGV[3])
return 1
`;
const TAKE_OVER_SCRIPT = `${NOW_MS}
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if redis.call('GET', KEYS[2]) ~= ARGV[2] then return 0 end
if ARGV[3] ~= '' then
  local since = tonumber(redis.call('HGET', KEYS[3], ARGV[3]) or ARGV[5])
  if since then
    local left = since + tonumber(ARGV[4]) - now_ms()
    if left > 0 then return -math.ceil(left) end
  end
end
redis.call('SET', KEYS[2], ARGV[6])
return 1
`;
const SENDER_BEAT_SCRIPT = `${NOW_MS}
local now = now_ms()
redis.call('HSET', KEYS[1], ARGV[1], now)
if ARGV[3] == '1' then
  local all = redis.call('HGETALL', KEYS[1])
  for i = 1, #all, 2 do
    if now - tonumber(all[i + 1]) > tonumber(ARGV[2]) then redis.call('HDEL', KEYS[1], all[i]) end
  end
end
return now
`;
const SEND_STATE_SCRIPT = `${NOW_MS}
local s = redis.call('HMGET', KEYS[1], 'pausedUntil', 'lastSentAt')
return {tonumber(s[1] or '0') or 0, tonumber(s[2] or '0') or 0, now_ms()}
`;
const RESTORE_SCRIPT = `${MARK_WORK}
local n = 0
for i = 3, #ARGV, 4 do
  if redis.call('HGET', KEYS[1], ARGV[i]) == ARGV[i + 1] then
    redis.call('HDEL', KEYS[1], ARGV[i])
    if redis.call('HEXISTS', KEYS[3], ARGV[i + 2]) == 0 then
      redis.call('HSET', KEYS[3], ARGV[i + 2], ARGV[i + 3])
      redis.call('ZADD', KEYS[2], 0, ARGV[i + 2])
      n = n + 1
    end
  end
end
if n > 0 then
  mark_work(KEYS[4], ARGV[2])
  redis.call('PUBLISH', ARGV[1], ARGV[2])
end
return n
`;
const FINISH_SCRIPT = `${NOW_MS}
local stored = redis.call('GET', KEYS[2])
if not stored or not string.find(stored, ARGV[2], 1, true) then return 0 end
local claimant = ARGV[7] ~= '' and string.find(stored, ARGV[7], 1, true)
if redis.call('GET', KEYS[1]) ~= ARGV[1] and not claimant then return 0 end
redis.call('DEL', KEYS[2])
if ARGV[3] == 'parked' then
  redis.call('HSET', KEYS[3], ARGV[4], ARGV[5])
  redis.call('ZADD', KEYS[5], now_ms(), ARGV[4])
  local over = redis.call('ZCARD', KEYS[5]) - ${PARKED_KEPT}
  if over > 0 then
    for _, id in ipairs(redis.call('ZRANGE', KEYS[5], 0, over - 1)) do
      redis.call('HDEL', KEYS[3], id)
      redis.call('ZREM', KEYS[5], id)
    end
  end
elseif ARGV[6] == '1' then
  redis.call('DEL', KEYS[4])
end
return 1
`;
const REQUEUE_SCRIPT = `${MARK_WORK}
local n = 0
for i = 3, #ARGV, 2 do
  if redis.call('HDEL', KEYS[1], ARGV[i]) == 1 then
    redis.call('ZREM', KEYS[4], ARGV[i])
    redis.call('HSET', KEYS[3], ARGV[i], ARGV[i + 1])
    redis.call('ZADD', KEYS[2], 0, ARGV[i])
    n = n + 1
  end
end
if n > 0 then
  mark_work(KEYS[5], ARGV[2])
  redis.call('PUBLISH', ARGV[1], ARGV[2])
end
return n
`;
const LEASE_SCRIPT = `
local held = redis.call('GET', KEYS[1])
if held == false or held == ARGV[1] or (ARGV[3] ~= '' and string.sub(held, 1, #ARGV[3]) == ARGV[3]) then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
`;
const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;
const SEAL_DIGEST_SCRIPT = `${NOW_MS}${MARK_WORK}
local last = tonumber(redis.call('HGET', KEYS[2], 'lastPeriodAt') or '-1')
if tonumber(ARGV[8]) <= last then return -2 end
redis.call('HSET', KEYS[2], 'lastPeriodAt', ARGV[8])
local from = redis.call('HGET', KEYS[2], 'lastDigestAt') or redis.call('HGET', KEYS[2], 'firstStagedAt') or ARGV[7]
local count = redis.call('HLEN', KEYS[1])
redis.call('HSET', KEYS[2], 'lastDigestAt', ARGV[2])
redis.call('HDEL', KEYS[2], 'firstStagedAt')
if count == 0 and ARGV[4] ~= '1' then return -1 end
if count > 0 then redis.call('RENAME', KEYS[1], KEYS[3]) end
local item = cjson.encode({v = ${RECORD_VERSION}, kind = 'digest', batchId = ARGV[1], period = {from = from, to = ARGV[2], timezone = ARGV[3]}})
redis.call('HSET', KEYS[5], ARGV[1], item)
redis.call('ZADD', KEYS[4], now_ms(), ARGV[1])
mark_work(KEYS[6], ARGV[6])
redis.call('PUBLISH', ARGV[5], ARGV[6])
return count
`;
const NOTICE_SCRIPT = `${NOW_MS}${TRIM_SEEN}
if ARGV[1] == 'raise' then
  if redis.call('HSETNX', KEYS[1], ARGV[2], ARGV[3]) == 0 then return 0 end
elseif ARGV[1] == 'clear' then
  if redis.call('HGET', KEYS[1], ARGV[2]) ~= ARGV[3] then return 0 end
  redis.call('HDEL', KEYS[1], ARGV[2])
end
local now = now_ms()
for i = 0, (#KEYS - 1) / 3 - 1 do
  local k = 2 + i * 3
  local a = 5 + i * 3
  if redis.call('ZADD', KEYS[k + 2], 'NX', now, ARGV[a]) == 1 then
    trim_seen(KEYS[k + 2])
    redis.call('HSET', KEYS[k + 1], ARGV[a], ARGV[a + 1])
    redis.call('ZADD', KEYS[k], now, ARGV[a])
    redis.call('PUBLISH', ARGV[4], ARGV[a + 2])
  end
end
return 1
`;
const SET_ASIDE_ITEMS_SCRIPT = `${NOW_MS}
local n = 0
local now = now_ms()
for i = 1, #ARGV, 3 do
  local stored = redis.call('HGET', KEYS[2], ARGV[i])
  local same = (ARGV[i + 1] == 'missing' and stored == false) or (ARGV[i + 1] == 'raw' and stored == ARGV[i + 2])
  if same then
    redis.call('ZREM', KEYS[1], ARGV[i])
    if stored then
      redis.call('HDEL', KEYS[2], ARGV[i])
      redis.call('HSET', KEYS[3], 'item:' .. ARGV[i] .. ':' .. now, stored)
    end
    n = n + 1
  end
end
return n
`;
const SET_ASIDE_INFLIGHT_SCRIPT = `${NOW_MS}
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if redis.call('GET', KEYS[2]) ~= ARGV[2] then return 0 end
redis.call('DEL', KEYS[2])
redis.call('HSET', KEYS[3], 'inflight:' .. now_ms(), ARGV[2])
return 1
`;
export {
  CLAIM_SCRIPT,
  ENQUEUE_SCRIPT,
  FINISH_SCRIPT,
  FORGET_IDLE_SCRIPT,
  LEASE_SCRIPT,
  MARK_WORK,
  NOTICE_SCRIPT,
  RELEASE_SCRIPT,
  REQUEUE_SCRIPT,
  RESTORE_SCRIPT,
  SEAL_DIGEST_SCRIPT,
  SENDER_BEAT_SCRIPT,
  SEND_STATE_SCRIPT,
  SET_ASIDE_INFLIGHT_SCRIPT,
  SET_ASIDE_ITEMS_SCRIPT,
  TAKE_OVER_SCRIPT,
  TRIM_SEEN,
  UPDATE_INFLIGHT_SCRIPT
};

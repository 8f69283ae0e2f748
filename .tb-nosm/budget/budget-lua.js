import { LUA_REDIS_NOW } from "./redis-clock.js";
const LUA_WINDOW_COUNT = `
local function windowCount(key, len)
  local start = windowStartOf(len)
  local stored = redis.call('HMGET', key, 'start', 'used')
  local storedStart = tonumber(stored[1])
  if storedStart and storedStart >= start then return storedStart, tonumber(stored[2]) or 0 end
  return start, 0
end
`;
const PRELUDE = LUA_REDIS_NOW + LUA_WINDOW_COUNT;
const TAKE_SCRIPT = `${PRELUDE}
local perMinute = tonumber(ARGV[1])
local perDay = tonumber(ARGV[2])
local reserve = tonumber(ARGV[3])
local interactive = ARGV[4] == '1'
local minuteMs = tonumber(ARGV[5])
local dayMs = tonumber(ARGV[6])
local margin = tonumber(ARGV[7])

local minuteStart, minuteUsed = windowCount(KEYS[1], minuteMs)
local dayStart, dayUsed = windowCount(KEYS[2], dayMs)
local minuteEnd = minuteStart + minuteMs
local dayEnd = dayStart + dayMs

local block = redis.call('HMGET', KEYS[3], 'until', 'mode', 'every')
local blockedUntil = tonumber(block[1]) or 0
if blockedUntil > now then return {0, 'blocked', blockedUntil, now} end
if dayUsed >= perDay then return {0, 'day', dayEnd, now} end
if (not interactive) and dayUsed >= perDay - reserve then return {0, 'reserve', dayEnd, now} end
if minuteUsed >= perMinute then return {0, 'minute', minuteEnd, now} end
local hold = 0
if minuteEnd - now < margin then hold = minuteEnd end
if dayEnd - now < margin and dayEnd > hold then hold = dayEnd end
if hold > 0 then return {0, 'window-end', hold, now} end

-- While probing, this token is the probe: the next one comes an interval later, whoever asks.
local probe = 0
local every = tonumber(block[3])
if block[2] == 'probe' and every then
  probe = now
  redis.call('HSET', KEYS[3], 'until', now + every, 'probeAt', now)
  redis.call('PEXPIRE', KEYS[3], every + dayMs)
end
redis.call('HSET', KEYS[1], 'start', minuteStart, 'used', minuteUsed + 1)
redis.call('HSET', KEYS[2], 'start', dayStart, 'used', dayUsed + 1)
redis.call('PEXPIRE', KEYS[1], minuteEnd - now + minuteMs)
redis.call('PEXPIRE', KEYS[2], dayEnd - now + dayMs)
return {1, perMinute - minuteUsed - 1, perDay - dayUsed - 1, now, probe}
`;
const BLOCK_SCRIPT = `${LUA_REDIS_NOW}
local untilMs
if ARGV[1] == 'for' then untilMs = now + tonumber(ARGV[2]) else untilMs = windowStartOf(tonumber(ARGV[2])) + tonumber(ARGV[2]) end
local current = redis.call('HMGET', KEYS[1], 'until', 'mode')
local currentUntil = tonumber(current[1]) or 0
local probing = 0
if current[2] == 'probe' then probing = 1 end
if untilMs <= now or currentUntil >= untilMs then return {0, math.max(currentUntil, now), now, probing} end
if probing == 1 then
  redis.call('HSET', KEYS[1], 'until', untilMs)
  redis.call('PEXPIRE', KEYS[1], untilMs - now + tonumber(ARGV[4]))
else
  redis.call('HSET', KEYS[1], 'until', untilMs, 'reason', ARGV[3], 'mode', 'timed')
  redis.call('PEXPIRE', KEYS[1], untilMs - now)
end
return {1, untilMs, now, probing}
`;
const PROBE_SCRIPT = `${LUA_REDIS_NOW}
local every = tonumber(ARGV[1])
local len = tonumber(ARGV[2])
local first = math.min(now + every, windowStartOf(len) + len)
local current = redis.call('HMGET', KEYS[1], 'until', 'mode')
local untilMs = math.max(first, tonumber(current[1]) or 0)
local entered = current[2] ~= 'probe'
redis.call('HSET', KEYS[1], 'until', untilMs, 'mode', 'probe', 'every', every, 'reason', ARGV[3], 'window', ARGV[4])
if entered then redis.call('HSET', KEYS[1], 'since', now) end
redis.call('PEXPIRE', KEYS[1], untilMs - now + tonumber(ARGV[5]))
if entered then return {1, untilMs, now, 1} end
return {0, untilMs, now, 1}
`;
const END_PROBE_SCRIPT = `
if redis.call('HGET', KEYS[1], 'mode') ~= 'probe' then return 0 end
if tonumber(redis.call('HGET', KEYS[1], 'probeAt')) ~= tonumber(ARGV[1]) then return 0 end
redis.call('DEL', KEYS[1])
return 1
`;
const USAGE_SCRIPT = `${PRELUDE}
local minuteStart, minuteUsed = windowCount(KEYS[1], tonumber(ARGV[1]))
local dayStart, dayUsed = windowCount(KEYS[2], tonumber(ARGV[2]))
local b = redis.call('HMGET', KEYS[3], 'until', 'reason', 'mode', 'window', 'every', 'since')
return {now, minuteStart, minuteUsed, dayStart, dayUsed, b[1] or '', b[2] or '', b[3] or '', b[4] or '', b[5] or '', b[6] or ''}
`;
export {
  BLOCK_SCRIPT,
  END_PROBE_SCRIPT,
  PROBE_SCRIPT,
  TAKE_SCRIPT,
  USAGE_SCRIPT
};

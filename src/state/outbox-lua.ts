// Lua scripts of the per-channel outbox. Every key a script touches is passed in KEYS and shares the
// deployment's hash tag, so each script runs in one Redis Cluster slot. Time comes from Redis `TIME`
// where a script stamps something, so every host agrees on it. No script decodes JSON: items and
// messages are opaque strings built and read by TypeScript.

import { SUBSCRIBER_CHANNEL_PREFIX } from '../routing/subscriber.js';
import { RECORD_VERSION } from './outbox-records.js';
import { PARKED_KEPT, SEEN_KEPT } from './retention.js';

/**
 * Keeps a dedupe memory (ZSET id → accepted at) within its count: the oldest ids go first. Called after
 * each add; the age bound is applied by each script before it adds.
 */
export const TRIM_SEEN = `
local function trim_seen(key)
  redis.call('ZREMRANGEBYRANK', key, 0, -${SEEN_KEPT + 1})
end
`;

/**
 * Every script that queues work for a channel marks a subscriber's channel as having work, in the same
 * step (state/keys.ts `subscriberOutboxesWithWork`): a wake-up lost while no process listened is found there.
 */
export const MARK_WORK = `
local function mark_work(key, channel)
  if string.sub(channel, 1, ${SUBSCRIBER_CHANNEL_PREFIX.length}) == '${SUBSCRIBER_CHANNEL_PREFIX}' then redis.call('SADD', key, channel) end
end
`;

/**
 * Forgets a subscriber's channel as having work when its outbox holds nothing: no item waiting (ready or
 * deferred), none in flight. KEYS: the set, pending, inflight. ARGV: channel. Returns 1 when forgotten.
 */
export const FORGET_IDLE_SCRIPT = `
if redis.call('ZCARD', KEYS[2]) > 0 or redis.call('EXISTS', KEYS[3]) == 1 then return 0 end
return redis.call('SREM', KEYS[1], ARGV[1])
`;

/** Epoch ms from Redis' own clock. */
const NOW_MS = `
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
`;

/**
 * Adds one item unless its id was accepted before (the per-channel dedupe memory).
 * KEYS: pending, items, seen, subscribers' outboxes with work. ARGV: id, item JSON, ready-at ms ('' =
 * now), dedupe memory ms, wake channel, channel name. Returns 1 when added.
 */
export const ENQUEUE_SCRIPT = `${NOW_MS}${TRIM_SEEN}${MARK_WORK}
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

/**
 * Takes the next message for sending: removes its items from the queue and records it as in flight,
 * unless the caller lost the channel's lease or a message is already in flight.
 * KEYS: lease, inflight, pending, items. ARGV: owner, inflight JSON, item ids…
 * Returns 1 claimed, 0 lease lost, -1 a message is already in flight.
 */
export const CLAIM_SCRIPT = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if redis.call('EXISTS', KEYS[2]) == 1 then return -1 end
for i = 3, #ARGV do
  redis.call('ZREM', KEYS[3], ARGV[i])
  redis.call('HDEL', KEYS[4], ARGV[i])
end
redis.call('SET', KEYS[2], ARGV[2])
return 1
`;

/**
 * Rewrites the in-flight record (attempts, parts sent, next attempt) of the caller's message, as the
 * lease holder or as the incarnation that claimed it (which may have lost the lease to an outage).
 * KEYS: lease, inflight. ARGV: owner, delivery id marker (a substring of the stored JSON), new JSON,
 * claimant marker (a substring naming the caller as the claimant; '' = none).
 * Returns 1 written, 0 neither the lease holder nor the claimant, or another message in flight.
 */
export const UPDATE_INFLIGHT_SCRIPT = `
local stored = redis.call('GET', KEYS[2])
if not stored or not string.find(stored, ARGV[2], 1, true) then return 0 end
local claimant = ARGV[4] ~= '' and string.find(stored, ARGV[4], 1, true)
if redis.call('GET', KEYS[1]) ~= ARGV[1] and not claimant then return 0 end
redis.call('SET', KEYS[2], ARGV[3])
return 1
`;

/**
 * Takes a message another incarnation claimed over for the caller, once the claimant is silent: its
 * delivery path's last heartbeat (Redis' clock) is older than the grace. A claimant with no heartbeat
 * (stopped, or a version without heartbeats) counts from the record's last touch. A claimant that beats
 * keeps its message however long it takes: it may have sent it and not recorded it yet.
 * KEYS: lease, inflight, senders. ARGV: owner, the exact bytes read, claimant ('' = none), grace ms,
 * the record's touchedAt ('' = none), the new JSON.
 * Returns 1 taken, 0 lease lost or the record changed, or minus the ms the claimant is still given.
 */
export const TAKE_OVER_SCRIPT = `${NOW_MS}
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

/**
 * Records the heartbeat of one incarnation's delivery path on Redis' clock, and (ARGV[3] = '1') forgets
 * incarnations silent for longer than ARGV[2] ms. KEYS: senders. ARGV: incarnation, forget after ms,
 * sweep ('1' | ''). Returns Redis' time.
 */
export const SENDER_BEAT_SCRIPT = `${NOW_MS}
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

/**
 * A channel's shared send state with Redis' time, so that every host compares a pause and the rate's
 * spacing on one clock. KEYS: state. Returns pausedUntil, lastSentAt, now (epoch ms).
 */
export const SEND_STATE_SCRIPT = `${NOW_MS}
local s = redis.call('HMGET', KEYS[1], 'pausedUntil', 'lastSentAt')
return {tonumber(s[1] or '0') or 0, tonumber(s[2] or '0') or 0, now_ms()}
`;

/**
 * Puts records set aside as unreadable back in the queue once this version reads them (one set aside by
 * an older process during a rolling upgrade), each only if still as read and its id not waiting already:
 * at the front, under its own id. KEYS: unreadable, pending, items, subscribers' outboxes with work.
 * ARGV: wake channel, channel name, then per record: field, the bytes read, item id, item JSON. Returns
 * how many were put back.
 */
export const RESTORE_SCRIPT = `${MARK_WORK}
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

/**
 * Ends the in-flight message: sent (each attempt is already in the record of sent messages, written by the
 * channel's recording sender) or parked (kept in the dead letter, which keeps its newest ${PARKED_KEPT}).
 * KEYS: lease, inflight, parked, the digest batch hash the message carries (any key of the tag when none),
 * the dead letter's order. ARGV: owner, delivery id marker, outcome ('sent' | 'parked'), delivery id,
 * parked record JSON ('' when sent), '1' when KEYS[4] is a digest batch to delete once sent, claimant
 * marker ('' = none: a substring of the stored JSON naming the caller as the incarnation that sent it,
 * which may record its send after losing the lease, as no other holder sends a live claimant's message).
 * Returns 1 done, 0 lease lost (and not the claimant) or another message in flight.
 */
export const FINISH_SCRIPT = `${NOW_MS}
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

/**
 * Puts parked messages back at the front of the queue, under their own delivery ids.
 * KEYS: parked, pending, items, the dead letter's order, subscribers' outboxes with work. ARGV: wake
 * channel, channel name, then per message: delivery id, item JSON.
 * Returns how many were requeued.
 */
export const REQUEUE_SCRIPT = `${MARK_WORK}
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

/**
 * Takes or renews a lease. KEYS: lease. ARGV: owner, ttl ms, owner prefix that may be taken over ('' =
 * none). Returns 1 held, 0 held by another owner.
 */
export const LEASE_SCRIPT = `
local held = redis.call('GET', KEYS[1])
if held == false or held == ARGV[1] or (ARGV[3] ~= '' and string.sub(held, 1, #ARGV[3]) == ARGV[3]) then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
`;

/** Releases a lease only if the caller still holds it. KEYS: lease. ARGV: owner. */
export const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/**
 * Closes a digest period in one step: the staged events become one sealed batch, queued in the channel's
 * outbox. A period is sealed once: a run for a period at or before the last one sealed (a stalled job run
 * again, a retry after an error whose seal landed) changes nothing.
 * KEYS: staged, meta, batch hash, pending, items, subscribers' outboxes with work. ARGV: batch id, period
 * end ISO, time zone, send-empty
 * (1/0), wake channel, channel name, first-period start ISO, the period's scheduled time (epoch ms).
 * Returns the number of events sealed, -1 when there was nothing to seal, -2 when the period was sealed.
 */
export const SEAL_DIGEST_SCRIPT = `${NOW_MS}${MARK_WORK}
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

/**
 * Raises or clears an operator notice and queues its message for each channel that carries it (the ops
 * channel, or the fallback: see state/notice-routing.ts) in one step, so a crash can neither mark a
 * problem active without its messages nor send a message twice.
 * KEYS: notices hash, then for each channel its pending, items, seen (none: no channel carries it).
 * ARGV: mode ('raise' | 'clear' | 'tell': queued only, never marked active), notice key, record JSON (raise,
 * tell) or the record read before (clear), wake channel; then for each channel: item id, item JSON, channel name.
 * Returns 1 when the notice changed state.
 */
export const NOTICE_SCRIPT = `${NOW_MS}${TRIM_SEEN}
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
    -- After any item already ready in this millisecond: a raise and its clear in one millisecond would
    -- otherwise be ordered by their ids, and "resolved" could go out before the problem it resolves.
    local same = redis.call('ZREVRANGEBYSCORE', KEYS[k], '(' .. (now + 1), now, 'WITHSCORES', 'LIMIT', 0, 1)[2]
    redis.call('ZADD', KEYS[k], same and tonumber(same) + 1 / 1024 or now, ARGV[a])
    redis.call('PUBLISH', ARGV[4], ARGV[a + 2])
  end
end
return 1
`;

/**
 * Sets aside waiting items whose record cannot be read, each only if it is still what the caller read:
 * the exact bytes move to the unreadable records (field `item:<id>:<ms>`), the id leaves the queue.
 * KEYS: pending, items, unreadable. ARGV: per item: id, 'raw' | 'missing', the bytes read ('' if missing).
 * Returns how many were set aside.
 */
export const SET_ASIDE_ITEMS_SCRIPT = `${NOW_MS}
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

/**
 * Sets aside an in-flight record that cannot be read, if the caller holds the lease and the record is
 * still what it read: its exact bytes move to the unreadable records (field `inflight:<ms>`).
 * KEYS: lease, inflight, unreadable. ARGV: owner, the bytes read. Returns 1 when moved.
 */
export const SET_ASIDE_INFLIGHT_SCRIPT = `${NOW_MS}
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if redis.call('GET', KEYS[2]) ~= ARGV[2] then return 0 end
redis.call('DEL', KEYS[2])
redis.call('HSET', KEYS[3], 'inflight:' .. now_ms(), ARGV[2])
return 1
`;

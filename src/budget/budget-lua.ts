import { LUA_REDIS_NOW } from './redis-clock.js';

// Lua scripts of the shared budget. Each runs atomically in Redis, so any number of processes on any
// number of machines share one count, and each reads the time from Redis (`TIME`), never from its
// caller: windows and blocks follow one clock. Every key a script touches is passed in KEYS and is a key
// of the credential's ledger (state/keys.ts `ledgerKeys`, under its own hash tag, never a deployment's),
// so each script runs in one Redis Cluster slot.
//
// Why one key per window kind: a key named by its window start (as before) would have to be computed
// before the script runs, from some host's clock. Instead the hash `budget:minute` (and `budget:day`)
// holds `start` and `used` of the window it last counted in; a script that finds Redis' time in a later
// window starts the count again at 0. A stored start later than Redis' window (Redis' clock stepped
// back, say after a failover) keeps counting into that stored window, so a window is never counted twice.
//
// The block hash holds `until` (no token before it), `reason`, and `mode`: `timed` (Retry-After, or
// the end of the minute window a 429 named; the hash expires with the block) or `probe` (a 429 for the
// day window, or an unnamed one, without Retry-After: from `until` on, the first take claims one probe
// request and moves `until` one interval on; a probe's answer ends it).
//
// No deployment owns the ledger (deployments that share a credential share it), so every key expires on
// its own: a window a window after its end, a timed block at its `until`, a probing block one day window
// after its `until`. A probing block is kept that long so that a deployment stopped past a probe's time
// still finds it, sends the probe, and ends probing (and its notice) with the probe's answer.

/** `windowCount(key, len)`: start and count of the window of length `len` holding `now`, as stored in `key`. */
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

/**
 * Takes one token. KEYS: minute window, day window, block hash.
 * ARGV: perMinute, perDay, reserve, interactive (1/0), minuteMs, dayMs, marginMs (0: no hold).
 * Returns {1, minuteLeft, dayLeft, now, probeClaim (0: none)} or {0, reason, retryAt, now}.
 * With a margin, a take within `marginMs` of a window's end is refused as `window-end` (retry at that end):
 * the request could reach the upstream after its window turned, where our count would not know of it.
 */
export const TAKE_SCRIPT = `${PRELUDE}
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

/**
 * Raises the block (never lowers it). KEYS: block hash.
 * ARGV: 'for' (ARGV[2] ms from now) or 'window' (to the end of the window of ARGV[2] ms holding now),
 * reason, dayMs. A timed block expires with itself; while probing, it only pushes the next probe later
 * (kept a day window past it). Returns {raised 1/0, until, now, probing 1/0}.
 */
export const BLOCK_SCRIPT = `${LUA_REDIS_NOW}
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

/**
 * Enters (or stays in) probing after a 429 without Retry-After for the day window or an unnamed one.
 * KEYS: block hash. ARGV: everyMs, firstWindowMs, reason, window, dayMs.
 * The first probe comes at the earlier of one interval and the end of our own window of `firstWindowMs`
 * (the likeliest alignment of the upstream's); a later 429 never brings the next probe closer, and the
 * probe's own 429 finds it already an interval on (the take that claimed it moved it). The block is kept
 * a day window past the next probe. Returns {entered 1/0, until, now, 1}.
 */
export const PROBE_SCRIPT = `${LUA_REDIS_NOW}
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

/**
 * Ends probing when the probe that claimed it at ARGV[1] got an answer. KEYS: block hash.
 * Returns 1 when the block was lifted.
 */
export const END_PROBE_SCRIPT = `
if redis.call('HGET', KEYS[1], 'mode') ~= 'probe' then return 0 end
if tonumber(redis.call('HGET', KEYS[1], 'probeAt')) ~= tonumber(ARGV[1]) then return 0 end
redis.call('DEL', KEYS[1])
return 1
`;

/**
 * Reads both windows and the block as Redis' clock sees them. KEYS: minute window, day window, block hash.
 * ARGV: minuteMs, dayMs. Returns {now, minuteStart, minuteUsed, dayStart, dayUsed, until, reason, mode,
 * window, every, since} (missing block fields as '').
 */
export const USAGE_SCRIPT = `${PRELUDE}
local minuteStart, minuteUsed = windowCount(KEYS[1], tonumber(ARGV[1]))
local dayStart, dayUsed = windowCount(KEYS[2], tonumber(ARGV[2]))
local b = redis.call('HMGET', KEYS[3], 'until', 'reason', 'mode', 'window', 'every', 'since')
return {now, minuteStart, minuteUsed, dayStart, dayUsed, b[1] or '', b[2] or '', b[3] or '', b[4] or '', b[5] or '', b[6] or ''}
`;

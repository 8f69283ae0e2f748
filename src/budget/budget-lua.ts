// Lua scripts of the shared budget. Each runs atomically in Redis, so any number of processes on any
// number of machines share one count. Every key a script touches is passed in KEYS (cluster-safe), and
// the caller's clock comes in ARGV: the windows follow the processes' clocks, not Redis', which is why
// every process should run NTP-synced.

/**
 * Takes one token. KEYS: minute counter, day counter, block hash.
 * ARGV: now, perMinute, perDay, reserve, interactive (1/0), minuteEnd, dayEnd.
 * Returns {1, minuteLeft, dayLeft} or {0, reason, retryAt}.
 */
export const TAKE_SCRIPT = `
local now = tonumber(ARGV[1])
local perMinute = tonumber(ARGV[2])
local perDay = tonumber(ARGV[3])
local reserve = tonumber(ARGV[4])
local interactive = ARGV[5] == '1'
local minuteEnd = tonumber(ARGV[6])
local dayEnd = tonumber(ARGV[7])

local blockedUntil = tonumber(redis.call('HGET', KEYS[3], 'until') or '0')
if blockedUntil > now then return {0, 'blocked', blockedUntil} end

local minuteUsed = tonumber(redis.call('GET', KEYS[1]) or '0')
local dayUsed = tonumber(redis.call('GET', KEYS[2]) or '0')
if dayUsed >= perDay then return {0, 'day', dayEnd} end
if (not interactive) and dayUsed >= perDay - reserve then return {0, 'reserve', dayEnd} end
if minuteUsed >= perMinute then return {0, 'minute', minuteEnd} end

minuteUsed = redis.call('INCR', KEYS[1])
dayUsed = redis.call('INCR', KEYS[2])
-- Keep each counter a while past its window, so a process whose clock lags a little still counts into it.
redis.call('PEXPIRE', KEYS[1], minuteEnd - now + 60000)
redis.call('PEXPIRE', KEYS[2], dayEnd - now + 60000)
return {1, perMinute - minuteUsed, perDay - dayUsed}
`;

/**
 * Raises the block to ARGV[1] (never lowers it). KEYS: block hash. ARGV: untilMs, reason, now.
 * The hash expires by itself when the block ends. Returns 1 when the block was raised.
 */
export const BLOCK_SCRIPT = `
local untilMs = tonumber(ARGV[1])
local now = tonumber(ARGV[3])
if untilMs <= now then return 0 end
local current = tonumber(redis.call('HGET', KEYS[1], 'until') or '0')
if current >= untilMs then return 0 end
redis.call('HSET', KEYS[1], 'until', ARGV[1], 'reason', ARGV[2])
redis.call('PEXPIRE', KEYS[1], untilMs - now)
return 1
`;

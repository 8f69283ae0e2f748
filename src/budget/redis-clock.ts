// One clock for every host: the budget's scripts read Redis' own `TIME`, so two processes whose clocks
// disagree still count into the same window and honour the same block. Redis 7 replicates scripts by
// their effects, so a script that reads TIME is allowed and replicas store what the master decided.
// What a script returns is on Redis' clock; callers wait with local timers, so each instant is turned
// into one on the caller's clock (`toCallerClock`): the wait is the right length whatever the host's
// clock says.

/**
 * Lua lines that set `now` to Redis' time in epoch ms, and `windowStartOf(len)` to the start of the
 * fixed window of length `len` that holds it (multiples of `len`: UTC midnight for a 24 h window).
 */
export const LUA_REDIS_NOW = `
local redisTime = redis.call('TIME')
local now = tonumber(redisTime[1]) * 1000 + math.floor(tonumber(redisTime[2]) / 1000)
local function windowStartOf(len) return now - (now % len) end
`;

/**
 * The instant `redisMs` on the caller's clock, given Redis' time `redisNow` of the same reply and the
 * caller's time `callerNow` read once the reply arrived: a wait computed from it is never too short.
 */
export function toCallerClock(redisMs: number, redisNow: number, callerNow: number): number {
  return callerNow + (redisMs - redisNow);
}

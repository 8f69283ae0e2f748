const LUA_REDIS_NOW = `
local redisTime = redis.call('TIME')
local now = tonumber(redisTime[1]) * 1000 + math.floor(tonumber(redisTime[2]) / 1000)
local function windowStartOf(len) return now - (now % len) end
`;
function toCallerClock(redisMs, redisNow, callerNow) {
  return callerNow + (redisMs - redisNow);
}
export {
  LUA_REDIS_NOW,
  toCallerClock
};

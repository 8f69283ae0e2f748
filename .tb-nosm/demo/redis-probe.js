import { redisSchema } from "../config/schema/redis.js";
import { openRedis } from "../state/redis-connection.js";
function displayRedisUrl(url) {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    return parsed.toString().replace(/\/$/, "");
  } catch {
    return "(an unreadable REDIS_URL)";
  }
}
function connectOnce(url, timeoutMs) {
  const redis = openRedis(redisSchema.parse({ url }), { purpose: "probe", connectTimeoutMs: timeoutMs });
  redis.on("error", () => void 0);
  return redis;
}
async function probeRedis(url, timeoutMs = 1500) {
  let redis;
  try {
    redis = connectOnce(url, timeoutMs);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  let cause;
  redis.on("error", (error) => {
    cause ??= error.message;
  });
  try {
    await redis.connect();
    await redis.ping();
    return void 0;
  } catch (error) {
    return cause ?? (error instanceof Error ? error.message : String(error));
  } finally {
    redis.disconnect();
  }
}
export {
  connectOnce,
  displayRedisUrl,
  probeRedis
};

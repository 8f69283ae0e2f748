import { connectWithin, openRedis } from "../state/redis-connection.js";
const REFEREE_MS = 2e3;
async function redisReachable(config, name) {
  const probe = openRedis(config, { purpose: "probe", name, connectTimeoutMs: REFEREE_MS });
  probe.on("error", () => void 0);
  try {
    await connectWithin(probe, REFEREE_MS);
    const timer = new Promise((resolve) => setTimeout(() => resolve("late"), REFEREE_MS).unref());
    return await Promise.race([probe.ping(), timer]) === "PONG";
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}
export {
  redisReachable
};

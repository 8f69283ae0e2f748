import { within } from "../time/within.js";
import { stateKeys } from "./keys.js";
import { topologyOf } from "./redis-connection.js";
import { RedisProblemError, redisAddress, redisProblemOf } from "./redis-problem.js";
const WRITE_PROBE = `redis.call('SET', KEYS[1], ARGV[1], 'PX', 5000)
return redis.call('DEL', KEYS[1])`;
const PROBE_TIMEOUT_MS = 5e3;
async function assertWritable(redis, config, root) {
  const address = redisAddress(config);
  try {
    if (topologyOf(config) === "single") {
      const info = String(await within(redis.info("replication"), PROBE_TIMEOUT_MS, "INFO replication"));
      const role = /^role:(\w+)/m.exec(info)?.[1];
      if (role === "slave" || role === "replica") {
        const master = /^master_host:(.+)$/m.exec(info)?.[1]?.trim();
        const port = /^master_port:(\d+)/m.exec(info)?.[1];
        throw new RedisProblemError(
          "replica",
          address,
          `role:replica${master ? ` of ${master}:${port}` : ""}`
        );
      }
    }
    await within(
      redis.eval(WRITE_PROBE, 1, stateKeys(root).writeProbe, String(process.pid)),
      PROBE_TIMEOUT_MS,
      "the write probe"
    );
  } catch (error) {
    throw redisProblemOf(error, config) ?? error;
  }
}
export {
  assertWritable
};

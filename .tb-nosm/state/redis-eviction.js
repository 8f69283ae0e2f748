import { z } from "zod";
import { redisErrorFields } from "./redis-error-fields.js";
const EVICTION_NOTICE = "redis-eviction";
const configReply = z.union([
  z.tuple([z.string(), z.string()]).transform(([, value]) => value),
  z.object({ "maxmemory-policy": z.string() }).transform((map) => map["maxmemory-policy"])
]);
const INFO_POLICY = /^maxmemory_policy:(\S+)\s*$/m;
async function checkEvictionPolicy(redis) {
  let configProblem;
  try {
    const parsed = configReply.safeParse(await redis.config("GET", "maxmemory-policy"));
    if (parsed.success) return classify(parsed.data);
    configProblem = "CONFIG GET gave no maxmemory-policy";
  } catch (error) {
    configProblem = `CONFIG GET refused: ${redisErrorFields(error).message}`;
  }
  try {
    const policy = INFO_POLICY.exec(await redis.info("memory"))?.[1];
    if (policy) return classify(policy);
    return { state: "unknown", reason: `${configProblem}; INFO memory has no maxmemory_policy` };
  } catch (error) {
    return { state: "unknown", reason: `${configProblem}; INFO refused: ${redisErrorFields(error).message}` };
  }
}
function classify(policy) {
  return policy === "noeviction" ? { state: "noeviction" } : { state: "evicts", policy };
}
function describeEvictionPolicy(policy) {
  switch (policy.state) {
    case "noeviction":
      return "redis maxmemory-policy is noeviction";
    case "evicts":
      return `redis maxmemory-policy is ${policy.policy}, not noeviction: under memory pressure Redis silently drops snapshots (changes in the gap are never told), outbox items (alerts lost) and queued jobs. Set maxmemory-policy noeviction.`;
    case "unknown":
      return `redis maxmemory-policy could not be checked (${policy.reason}); make sure it is noeviction.`;
  }
}
async function reportEvictionPolicy(policy, deps) {
  const text = describeEvictionPolicy(policy);
  if (policy.state === "evicts") {
    const raised = await deps.notices.raise(
      EVICTION_NOTICE,
      "warning",
      "Redis may evict shortwatch state",
      text
    );
    if (!raised) deps.logger.warn({ notice: EVICTION_NOTICE, policy: policy.policy }, text);
  } else if (policy.state === "noeviction") {
    await deps.notices.clear(EVICTION_NOTICE, "Redis maxmemory-policy is noeviction now.");
  } else {
    deps.logger.info({ reason: policy.reason }, text);
  }
}
export {
  EVICTION_NOTICE,
  checkEvictionPolicy,
  describeEvictionPolicy,
  reportEvictionPolicy
};

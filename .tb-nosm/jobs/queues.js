import { shortHash } from "../state/delivery-ids.js";
const QUEUE = {
  sweep: "sweep",
  poll: "poll",
  digest: "digest",
  /** Whole-register reads (src/jobs/registers/): one job per source every `interval`. */
  register: "register"
};
const SCHEDULER = {
  sweep: "sweep",
  digest: (channel) => `digest-${channel}`,
  heartbeat: "heartbeat",
  register: (source) => `register-${source}`
};
function pollJobId(issuerId, version) {
  return `poll-${shortHash(issuerId)}-${version}`;
}
const KEEP_COMPLETED = { age: 24 * 3600, count: 1e3 };
const KEEP_FAILED = { age: 7 * 24 * 3600, count: 1e4 };
const DIGEST_RETRIES = { attempts: 8, backoff: { type: "exponential", delay: 1e3 } };
export {
  DIGEST_RETRIES,
  KEEP_COMPLETED,
  KEEP_FAILED,
  QUEUE,
  SCHEDULER,
  pollJobId
};

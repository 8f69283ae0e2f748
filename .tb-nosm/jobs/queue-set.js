import { Queue } from "bullmq";
import { stateKeys } from "../state/keys.js";
import { QUEUE } from "./queues.js";
function bullPrefix(root) {
  return stateKeys(root).bull;
}
class QueueSet {
  sweep;
  poll;
  digest;
  constructor(connection, root) {
    const open = (name) => new Queue(name, { connection, prefix: bullPrefix(root) });
    this.sweep = open(QUEUE.sweep);
    this.poll = open(QUEUE.poll);
    this.digest = open(QUEUE.digest);
  }
  /** Every queue. */
  all() {
    return [this.sweep, this.poll, this.digest];
  }
  async close() {
    await Promise.all(this.all().map((queue) => queue.close()));
  }
}
export {
  QueueSet,
  bullPrefix
};

import type { DemoRedis } from './acquire-redis.js';
import type { RunningDemo } from './start-demo.js';

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** The last line: what was captured where, and what was cleaned up. */
export function summaryLine(demo: RunningDemo, redis: DemoRedis, out: string): string {
  const { slack, email, digest } = demo.files.counts;
  const captured = `Captured ${plural(slack, 'Slack message', 'Slack messages')}, ${plural(email, 'email alert', 'email alerts')} and ${plural(digest, 'digest', 'digests')} in ${out}/.`;
  const removed = demo.removedKeys();
  const keys =
    removed === undefined
      ? `The keys under ${demo.prefix} could not be removed.`
      : `Removed ${plural(removed, 'key', 'keys')} under ${demo.prefix}.`;
  const server = redis.child ? ' Stopped the demo redis-server.' : '';
  return `${captured} ${keys}${server}`;
}

import { Queue } from 'bullmq';
import type { App } from '../../src/app.js';
import { QUEUE } from '../../src/jobs/queues.js';
import type { Stack } from './harness.js';
import { waitFor } from './harness.js';

/**
 * "Nothing more will arrive", as a condition instead of a sleep. A message can only come from work the
 * deployment still holds: an item pending in a channel's outbox (ready or backing off), a message in
 * flight (claimed, being sent, or sent and not yet recorded: a restarted lease holder sends it again), a
 * poll queued, running, delayed or left active by a dead process, or a sweep running (it may queue
 * polls). Digest staging is not work here: a period is sealed by its cron, not by what is pending.
 * Call it once the deployment is known to have seen the change (a first message, an event logged): an
 * upstream change no sweep has read yet is no work of the deployment's.
 */

/** What a stand-in outside the stack received so far (a webhook receiver, a Teams stand-in). */
export type ReceivedCount = () => number;

/** Options of {@link settled}. */
export interface SettleOptions {
  /** Stand-ins beside the stack's Slack and SMTP ones whose counts must hold still too. */
  receivers?: readonly ReceivedCount[];
  timeoutMs?: number;
}

/** Work left (0 when none), what it is, and a fingerprint of every counter a finished or new send moves. */
interface WorkState {
  busy: number;
  /** The non-zero parts of `busy`, for a timeout to say what never finished. */
  left: string;
  counters: string;
}

/** Every channel the deployment has run with (Redis' registry) or is configured with. */
async function channelsOf(stack: Stack): Promise<string[]> {
  const registered = await stack.redis.redis.hkeys(stack.keys.channels);
  const configured = Array.isArray(stack.configObject.channels) ? stack.configObject.channels : [];
  const names = configured.flatMap((c: unknown) =>
    typeof c === 'object' && c !== null && 'name' in c && typeof c.name === 'string' ? [c.name] : [],
  );
  return [...new Set([...registered, ...names])];
}

async function readWork(
  stack: Stack,
  queues: Queues,
  receivers: readonly ReceivedCount[],
): Promise<WorkState> {
  const redis = stack.redis.redis;
  const sweep = await queues.sweep.getJobCounts('waiting', 'active');
  const poll = await queues.poll.getJobCounts(
    'waiting',
    'active',
    'delayed',
    'prioritized',
    'waiting-children',
  );
  const channels = await channelsOf(stack);
  const outboxes = await Promise.all(
    channels.map(async (channel) => {
      const keys = stack.keys.outbox(channel);
      const [pending, inflight] = await Promise.all([redis.zcard(keys.pending), redis.exists(keys.inflight)]);
      return pending + inflight;
    }),
  );
  const parts = [
    ...Object.entries(sweep).map(([state, n]) => [`sweep ${state}`, n] as const),
    ...Object.entries(poll).map(([state, n]) => [`poll ${state}`, n] as const),
    ...channels.map((channel, i) => [`outbox ${channel}`, outboxes[i] ?? 0] as const),
  ];
  const left = parts
    .filter(([, n]) => n > 0)
    .map(([what, n]) => `${what}: ${n}`)
    .join(', ');
  const record = await redis.xlen(stack.keys.record);
  const busy =
    Object.values(sweep).reduce((sum, n) => sum + n, 0) +
    Object.values(poll).reduce((sum, n) => sum + n, 0) +
    outboxes.reduce((sum, n) => sum + n, 0);
  const counters = [
    record,
    stack.slack.posts.length,
    stack.smtp.mails.length,
    ...receivers.map((count) => count()),
  ].join(',');
  return { busy, left, counters };
}

interface Queues {
  sweep: Queue;
  poll: Queue;
}

/**
 * Waits until the stack's deployment has no work left that could send anything (see the module comment)
 * and two reads of that state in a row agree on every counter: the record of sent messages, the
 * Slack and SMTP stand-ins and `receivers`. Then a count taken is final: a repeat or a late message would
 * have had to come from work this saw finished.
 */
export async function settled(stack: Stack, options: SettleOptions = {}): Promise<void> {
  const open = (name: string) => new Queue(name, { connection: stack.redis.redis, prefix: stack.keys.bull });
  const queues = { sweep: open(QUEUE.sweep), poll: open(QUEUE.poll) };
  let last: WorkState | undefined;
  try {
    let previous: string | undefined;
    await waitFor(
      'the deployment to settle (outboxes empty, nothing in flight, no poll or sweep left)',
      async () => {
        const state = await readWork(stack, queues, options.receivers ?? []);
        last = state;
        const still = state.busy === 0 && state.counters === previous;
        previous = state.busy === 0 ? state.counters : undefined;
        return still;
      },
      options.timeoutMs ?? 20_000,
      50,
    );
  } catch (error) {
    // Say what never finished: a timeout alone does not tell a stuck outbox from a poll left delayed.
    const still =
      last === undefined ? 'nothing read' : last.left || `counters still moving (${last.counters})`;
    throw new Error(`${error instanceof Error ? error.message : String(error)}; still busy: ${still}`);
  } finally {
    await Promise.all([queues.sweep.close(), queues.poll.close()]);
  }
}

/** The values that occur more than once, each once, in order of first repeat: `[]` when none repeats. */
export function repeated<T>(values: Iterable<T>): T[] {
  const seen = new Set<T>();
  const twice = new Set<T>();
  for (const value of values) {
    if (seen.has(value)) twice.add(value);
    seen.add(value);
  }
  return [...twice];
}

/**
 * One channel settled, where the whole deployment's {@link settled} would wait on what never sends there
 * (other issuers' stale polls, an ops channel's notices): `events` logged, the channel's outbox empty with
 * nothing in flight, and the receiver's count the same on two looks in a row.
 */
export async function channelSettled(app: App, channel: string, events: number, received: ReceivedCount) {
  let previous = -1;
  await waitFor(
    `the channel ${channel} to settle`,
    async () => {
      const logged = await app.ctx.eventLog.recent({ limit: 500 });
      const depth = await app.ctx.outbox.depth(channel, Date.now());
      const still = logged.length === events && depth.waiting + depth.inflight === 0;
      const same = still && previous === received();
      previous = still ? received() : -1;
      return same;
    },
    20_000,
    200,
  );
}

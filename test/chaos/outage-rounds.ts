import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { stringify } from 'yaml';
import { parseConfig } from '../../src/config/load.js';
import {
  type CapturedSlackPost,
  type SlackCapture,
  startSlackCapture,
} from '../../src/demo/slack-capture.js';
import { type SmtpCapture, startSmtpCapture } from '../../src/demo/smtp-capture.js';
import { EventLog } from '../../src/state/event-log.js';
import { keyRoot } from '../../src/state/keys.js';
import { openRedis } from '../../src/state/redis-connection.js';
import {
  type DaemonProcess,
  type Stack,
  slackEvents,
  spawnDaemon,
  startStack,
  updateConfig,
  waitFor,
} from '../e2e/harness.js';
import { type PrivateSentinel, startRedisSentinel } from '../e2e/redis-topology.js';
import { repeated, settled } from '../e2e/settled.js';
import { type FreezingProxy, startFreezingProxy } from '../helpers/freezing-proxy.js';
import { TEST_REDIS_URL } from '../helpers/redis.js';

// Issue 29's rounds: `shortwatch start` and `shortwatch worker` on one config, both reaching Redis through a
// proxy, Slack and SMTP stand-ins that take 1.5-3 s to accept (Slack) so that a fault lands between a
// receiver's acceptance and the record of the send. Each round steps the sandbox (a burst over several
// issuers), waits for the first message of the round to reach a receiver, then cuts Redis off (every
// connection closed, new ones refused) or freezes every connection (nothing passes, nothing is closed:
// half-open; the frozen ones never carry a byte again) for the round's time. A process whose connections
// stay stuck exits 1 and is restarted, as its supervisor would. The round then waits until the deployment
// has settled (no poll left, every outbox empty, nothing in flight: every message queued was sent) and
// counts: no Slack event line twice, no e-mail Message-ID twice, nothing parked.
// A Sentinel world runs the same processes on a private Sentinel (master, replica, three sentinels)
// instead of the proxy; its fault SIGKILLs the master at the first receipt and lets the sentinels promote
// the replica after their `down-after` (10 s or more), then starts the killed node again as the new
// master's replica, as an operator or an orchestrator would.

/**
 * One fault of a round: Redis unreachable or every connection frozen for `ms` (the proxy world), or the
 * master killed and failed over (the Sentinel world; the promotion takes the world's `downAfterMs`).
 */
export type Fault = { kind: 'outage' | 'freeze'; ms: number } | { kind: 'failover' };

/** What one round saw. */
export interface RoundResult {
  fault: Fault;
  /** Slack event lines expected and received in this round. */
  expected: number;
  received: number;
  /** Slack event lines received more than once, or not expected. */
  slackRepeats: string[];
  missing: string[];
  /** E-mails of the round, and Message-IDs seen twice (in this round or an earlier one). */
  mails: number;
  mailRepeats: string[];
  parked: number;
  /** Process restarts (exits for a stuck connection) during the round. */
  restarts: number;
  /** A failover's time from the master's kill to the sentinels naming the replica, ms. */
  promotionMs?: number;
  /**
   * Messages a receiver accepted whose record the fault held up (the senders' "sent but not recorded
   * yet" warnings in the round): the fault struck where a repeat would come from.
   */
  heldRecords: number;
  /** What never finished when the round did not settle in time (the round then counts what arrived). */
  stuck?: string;
}

/** A process kept running as docker-compose `restart: unless-stopped` or systemd `Restart=on-failure` does. */
class Supervised {
  readonly role: 'start' | 'worker';
  readonly #stack: Stack;
  process: DaemonProcess | undefined;
  restarts = 0;
  /** The output (log lines) of each process that exited: read on a failed round. */
  readonly exitedLogs: string[] = [];
  #stopped = false;

  constructor(stack: Stack, role: 'start' | 'worker') {
    this.#stack = stack;
    this.role = role;
  }

  async start(): Promise<void> {
    for (;;) {
      if (this.#stopped) return;
      try {
        const child = await spawnDaemon(this.#stack, this.role, {}, 60_000);
        this.process = child;
        void child.exited.then((code) => {
          this.exitedLogs.push(
            `--- ${this.role} pid ${child.child.pid} exited ${code}\n${child.stdout()}${child.stderr()}`,
          );
          // Its lines are kept once, with the exited.
          if (this.process === child) this.process = undefined;
          if (this.#stopped) return;
          this.restarts++;
          void sleep(1_000).then(() => this.start());
        });
        return;
      } catch {
        // Exited while starting (Redis unreachable): started again a second later, as a supervisor would.
        await sleep(1_000);
      }
    }
  }

  /** Every log line this member's processes wrote, the running one's last. */
  logs(): string {
    const running = this.process
      ? `--- ${this.role} pid ${this.process.child.pid} (running)\n${this.process.stdout()}${this.process.stderr()}`
      : '';
    return [...this.exitedLogs, running].join('\n');
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    const child = this.process;
    if (!child || child.child.exitCode !== null || child.child.signalCode !== null) return;
    child.kill('SIGTERM');
    const done = await Promise.race([child.exited.then(() => true), sleep(10_000).then(() => false)]);
    if (!done) {
      child.kill('SIGKILL');
      await child.exited;
    }
  }
}

/** The stack, its stand-ins, the proxy or the Sentinel, and the two supervised processes. */
export interface OutageWorld {
  stack: Stack;
  /**
   * The stack as read for the counts: its `redis` is a connection to where the deployment's state lives
   * (the private Sentinel's current master in a Sentinel world).
   */
  state: Stack;
  proxy?: FreezingProxy;
  sentinel?: PrivateSentinel;
  slack: SlackCapture;
  smtp: SmtpCapture;
  members: Supervised[];
  /** Set by a round: called at the first receipt of a message. */
  onReceipt: (() => void) | undefined;
  close(): Promise<void>;
}

/** Where a world's Redis is: the test Redis behind a freezing proxy, or a private Sentinel. */
export type OutageTopology = { kind: 'proxy' } | { kind: 'sentinel'; downAfterMs: number };

/** The world's Redis and the `redis` section that reaches it. */
async function startTopology(topology: OutageTopology, stack: Stack) {
  const liveness = { interval: '1s', timeout: '5s' };
  if (topology.kind === 'proxy') {
    const target = new URL(TEST_REDIS_URL);
    const proxy = await startFreezingProxy(Number(target.port || 6379), target.hostname);
    const section = { url: `redis://127.0.0.1:${proxy.port}`, prefix: stack.prefix, liveness };
    return { proxy, section, stop: () => proxy.close() };
  }
  const sentinel = await startRedisSentinel(topology.downAfterMs);
  const section = {
    sentinel: { name: sentinel.name, nodes: sentinel.sentinelNodes },
    prefix: stack.prefix,
    liveness,
  };
  return { sentinel, section, stop: () => sentinel.stop() };
}

/**
 * The stack as the counts read it: as it is on the test Redis, or in a Sentinel world with a connection of
 * the daemons' own (their config's `redis` section), which follows the master through each failover.
 */
async function stateOf(stack: Stack, sentinel: boolean): Promise<{ state: Stack; close(): void }> {
  if (!sentinel) return { state: stack, close: () => undefined };
  const config = parseConfig(stringify(stack.configObject), stack.configPath);
  const follower = openRedis(config.redis, { purpose: 'commands', name: 'outage-rounds' });
  if (!(follower instanceof Redis)) throw new Error('a Sentinel connection is one Redis client');
  follower.on('error', () => undefined);
  await follower.connect();
  return {
    state: { ...stack, redis: { ...stack.redis, redis: follower } },
    close: () => follower.disconnect(),
  };
}

/** Starts the world: everything but Redis is in this process; `start` and `worker` are spawned. */
export async function startOutageWorld(
  seed: number,
  topology: OutageTopology = { kind: 'proxy' },
): Promise<OutageWorld> {
  const world: Partial<OutageWorld> & { onReceipt: (() => void) | undefined } = { onReceipt: undefined };
  const receipt = () => {
    const fire = world.onReceipt;
    world.onReceipt = undefined;
    fire?.();
  };
  const slack = await startSlackCapture({
    replyTo: () => {
      receipt();
      return { status: 200, body: 'ok', delayMs: 1_500 + Math.floor(Math.random() * 1_500) };
    },
  });
  const smtp = await startSmtpCapture({ onMail: receipt });
  const stack = await startStack({ issuers: 10, seed, channels: [] });
  const redis = await startTopology(topology, stack);
  updateConfig(stack, (config) => ({
    ...config,
    redis: redis.section,
    // The default grace: the outages here (up to 30 s) must stay inside it.
    delivery: { claimGrace: '60s' },
    channels: [
      {
        name: 'desk',
        kind: 'slack',
        webhookUrl: slack.url,
        backoff: '200ms',
        attempts: 10,
        ratePerSecond: 1,
      },
      {
        name: 'alerts',
        kind: 'email',
        host: '127.0.0.1',
        port: smtp.port,
        secure: false,
        from: 'shortwatch@example.test',
        to: ['trader@example.test'],
        backoff: '200ms',
        attempts: 10,
        ratePerSecond: 2,
      },
    ],
  }));
  const reader = await stateOf(stack, redis.sentinel !== undefined);
  const { state } = reader;
  // Registered where the state lives (the Sentinel's master in that world).
  const members = [new Supervised(state, 'start'), new Supervised(state, 'worker')];
  for (const member of members) await member.start();
  const ids = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
  const snapshots = async () => {
    const found = await Promise.all(ids.map((id) => state.redis.redis.exists(stack.keys.snapshot(id))));
    return found.every((n) => n === 1);
  };
  await waitFor('baselines', snapshots, 60_000);
  return Object.assign(world, {
    stack,
    state,
    ...(redis.proxy ? { proxy: redis.proxy } : {}),
    ...(redis.sentinel ? { sentinel: redis.sentinel } : {}),
    slack,
    smtp,
    members,
    async close() {
      await Promise.all(members.map((m) => m.stop()));
      reader.close();
      await Promise.all([slack.close(), smtp.close(), redis.stop()]);
      await stack.cleanup();
    },
  });
}

/** Of `units` (`issuer|holder key|kind`), those whose logged event routing sent to `desk`. */
async function untold(stack: Stack, units: readonly string[]): Promise<string[]> {
  const log = new EventLog(stack.redis.redis, keyRoot(stack.prefix));
  const sent: string[] = [];
  for (const unit of units) {
    const [issuer = '', holderKey, kind] = unit.split('|');
    // The newest event of that holder and kind: this round's (an earlier round's close of the same
    // holder, told then, says nothing of this one).
    const logged = await log.recentLogged({ issuerId: issuer, limit: 500 });
    const latest = logged.find(({ event }) => event.holderKey === holderKey && event.kind === kind);
    if (latest?.routes.some((r) => r.channel === 'desk' && r.verdict === 'send')) sent.push(unit);
  }
  return sent;
}

/** Slack event lines of accepted posts, as `issuer|holder key|kind`. */
function slackUnits(posts: readonly CapturedSlackPost[]): string[] {
  return posts.filter((p) => p.status === 200).flatMap((p) => slackEvents(p.payload));
}

/** Strikes `fault`; resolves when it is over (Redis reachable, the failed-over node back in sync). */
async function strike(world: OutageWorld, fault: Fault): Promise<{ promotionMs?: number }> {
  if (fault.kind === 'failover') {
    if (!world.sentinel) throw new Error('a failover needs a Sentinel world');
    const { killedAt, promotedAt } = await world.sentinel.failover();
    return { promotionMs: promotedAt - killedAt };
  }
  const { proxy } = world;
  if (!proxy) throw new Error(`a ${fault.kind} needs the proxy world`);
  if (fault.kind === 'outage') await proxy.outage(fault.ms);
  else {
    proxy.freeze('', { future: true });
    await sleep(fault.ms);
    proxy.forgetFreezes();
  }
  return {};
}

const HELD_RECORD = /message sent but not recorded yet/g;

/** The "sent but not recorded yet" warnings the members' processes logged so far. */
function heldRecords(members: readonly Supervised[]): number {
  return members.reduce((n, m) => n + (m.logs().match(HELD_RECORD) ?? []).length, 0);
}

/** One round: a burst, the fault at the first receipt, then the count. */
export async function runRound(world: OutageWorld, fault: Fault): Promise<RoundResult> {
  const { stack, state, slack, smtp, members } = world;
  const postsBefore = slack.posts.length;
  const mailsBefore = smtp.mails.length;
  const restartsBefore = members.reduce((n, m) => n + m.restarts, 0);
  const heldBefore = heldRecords(members);
  // The kill must follow the first receipt at once (an e-mail's record follows its acceptance within
  // milliseconds): the sentinels' spacing of failovers waited out and the master known before the burst.
  if (fault.kind === 'failover') await world.sentinel?.armFailover();
  let struck: Promise<{ promotionMs?: number }> | undefined;
  world.onReceipt = () => {
    struck = strike(world, fault);
  };
  const expected = stack.sandbox.scenario.step().map((c) => `${c.issuerId}|${c.holderKey}|${c.kind}`);
  await waitFor('the first message of the round received', () => struck !== undefined, 60_000);
  const { promotionMs } = (await struck) ?? {};
  const stuck = await settled(state, {
    receivers: [() => slack.posts.length, () => smtp.mails.length],
    timeoutMs: 240_000,
  }).then(
    () => undefined,
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );
  const units = slackUnits(slack.posts.slice(postsBefore));
  const parked = await Promise.all(
    ['desk', 'alerts'].map((c) => state.redis.redis.hlen(stack.keys.outbox(c).parked)),
  );
  return {
    fault,
    expected: expected.length,
    received: units.length,
    slackRepeats: repeated(units),
    // A change the daemon does not tell (no event: under a threshold; or one routing logged as skipped
    // for the channel: a close already told as its fall below the threshold) is no loss: missing counts
    // the changes whose logged event routing sent to Slack and no accepted post carried.
    missing: await untold(
      state,
      expected.filter((u) => !units.includes(u)),
    ),
    mails: smtp.mails.length - mailsBefore,
    // A Message-ID seen twice in all the mails so far, once at least in this round: an earlier round's
    // repeat is not counted again.
    mailRepeats: repeated(smtp.mails.map((m) => m.parsed.messageId ?? '?')).filter((id) =>
      smtp.mails.slice(mailsBefore).some((m) => m.parsed.messageId === id),
    ),
    parked: parked.reduce((a, b) => a + b, 0),
    restarts: members.reduce((n, m) => n + m.restarts, 0) - restartsBefore,
    heldRecords: heldRecords(members) - heldBefore,
    ...(promotionMs === undefined ? {} : { promotionMs }),
    ...(stuck === undefined ? {} : { stuck }),
  };
}

import { setTimeout as sleep } from 'node:timers/promises';
import {
  type CapturedSlackPost,
  type SlackCapture,
  startSlackCapture,
} from '../../src/demo/slack-capture.js';
import { type SmtpCapture, startSmtpCapture } from '../../src/demo/smtp-capture.js';
import {
  type DaemonProcess,
  type Stack,
  slackEvents,
  spawnDaemon,
  startStack,
  updateConfig,
  waitFor,
} from '../e2e/harness.js';
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

/** One fault of a round. */
export interface Fault {
  kind: 'outage' | 'freeze';
  ms: number;
}

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
  /** What never finished when the round did not settle in time (the round then counts what arrived). */
  stuck?: string;
}

/** A process kept running as docker-compose `restart: unless-stopped` or systemd `Restart=on-failure` does. */
class Supervised {
  readonly role: 'start' | 'worker';
  readonly #stack: Stack;
  process: DaemonProcess | undefined;
  restarts = 0;
  /** Standard error of the processes that exited, then of the running one: read on a failed round. */
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
          this.exitedLogs.push(`--- ${this.role} pid ${child.child.pid} exited ${code}\n${child.stderr()}`);
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
      ? `--- ${this.role} pid ${this.process.child.pid} (running)\n${this.process.stderr()}`
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

/** The stack, its stand-ins, the proxy and the two supervised processes. */
export interface OutageWorld {
  stack: Stack;
  proxy: FreezingProxy;
  slack: SlackCapture;
  smtp: SmtpCapture;
  members: Supervised[];
  /** Set by a round: called at the first receipt of a message. */
  onReceipt: (() => void) | undefined;
  close(): Promise<void>;
}

/** Starts the world: everything but Redis is in this process; `start` and `worker` are spawned. */
export async function startOutageWorld(seed: number): Promise<OutageWorld> {
  const target = new URL(TEST_REDIS_URL);
  const proxy = await startFreezingProxy(Number(target.port || 6379), target.hostname);
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
  updateConfig(stack, (config) => ({
    ...config,
    redis: {
      url: `redis://127.0.0.1:${proxy.port}`,
      prefix: stack.prefix,
      liveness: { interval: '1s', timeout: '5s' },
    },
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
  const members = [new Supervised(stack, 'start'), new Supervised(stack, 'worker')];
  for (const member of members) await member.start();
  const ids = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
  const snapshots = async () => {
    const found = await Promise.all(ids.map((id) => stack.redis.redis.exists(stack.keys.snapshot(id))));
    return found.every((n) => n === 1);
  };
  await waitFor('baselines', snapshots, 60_000);
  return Object.assign(world, {
    stack,
    proxy,
    slack,
    smtp,
    members,
    async close() {
      await Promise.all(members.map((m) => m.stop()));
      await Promise.all([slack.close(), smtp.close(), proxy.close()]);
      await stack.cleanup();
    },
  });
}

/** Of `units` (`issuer|holder key|kind`), those whose logged event routing sent to `desk`. */
async function untold(stack: Stack, units: readonly string[]): Promise<string[]> {
  const sent: string[] = [];
  for (const unit of units) {
    const [issuer = '', holderKey, kind] = unit.split('|');
    // The newest event of that holder and kind: this round's (an earlier round's close of the same
    // holder, told then, says nothing of this one).
    const entries = await stack.redis.redis.xrevrange(stack.keys.issuerEvents(issuer), '+', '-');
    const latest = entries
      .map(([, fields]) => ({
        event: JSON.parse(fields[fields.indexOf('event') + 1] ?? '{}') as {
          holderKey?: string;
          kind?: string;
        },
        routes: JSON.parse(fields[fields.indexOf('routes') + 1] ?? '[]') as Array<{
          channel: string;
          verdict: string;
        }>,
      }))
      .find(({ event }) => event.holderKey === holderKey && event.kind === kind);
    if (latest?.routes.some((r) => r.channel === 'desk' && r.verdict === 'send')) sent.push(unit);
  }
  return sent;
}

/** Slack event lines of accepted posts, as `issuer|holder key|kind`. */
function slackUnits(posts: readonly CapturedSlackPost[]): string[] {
  return posts.filter((p) => p.status === 200).flatMap((p) => slackEvents(p.payload));
}

/** One round: a burst, the fault at the first receipt, then the count. */
export async function runRound(world: OutageWorld, fault: Fault): Promise<RoundResult> {
  const { stack, proxy, slack, smtp, members } = world;
  const postsBefore = slack.posts.length;
  const mailsBefore = smtp.mails.length;
  const restartsBefore = members.reduce((n, m) => n + m.restarts, 0);
  let struck: Promise<void> | undefined;
  world.onReceipt = () => {
    struck =
      fault.kind === 'outage'
        ? proxy.outage(fault.ms)
        : (async () => {
            proxy.freeze('', { future: true });
            await sleep(fault.ms);
            proxy.forgetFreezes();
          })();
  };
  const expected = stack.sandbox.scenario.step().map((c) => `${c.issuerId}|${c.holderKey}|${c.kind}`);
  await waitFor('the first message of the round received', () => struck !== undefined, 60_000);
  await struck;
  const stuck = await settled(stack, {
    receivers: [() => slack.posts.length, () => smtp.mails.length],
    timeoutMs: 240_000,
  }).then(
    () => undefined,
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );
  const units = slackUnits(slack.posts.slice(postsBefore));
  const parked = await Promise.all(
    ['desk', 'alerts'].map((c) => stack.redis.redis.hlen(stack.keys.outbox(c).parked)),
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
      stack,
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
    ...(stuck === undefined ? {} : { stuck }),
  };
}

import { setTimeout as sleep } from 'node:timers/promises';
import { stringify } from 'yaml';
import { z } from 'zod';
import { App } from '../../src/app.js';
import { parseConfig } from '../../src/config/load.js';
import { silentLogger } from '../../src/telemetry/logger.js';
import { TEST_SIGNING_SECRET } from '../channels/webhook/fixtures.js';
import {
  startWebhookReceiver,
  type WebhookReceipt,
  type WebhookReceiver,
} from '../chaos/webhook-receiver.js';
import { hookEvents, killAll, refresh, spawnRegistered, waitForEvents } from './ha-support.js';
import { type DaemonProcess, type Stack, startStack, updateConfig, waitFor } from './harness.js';
import { type ProxiedSentinel, startProxiedSentinel } from './redis-topology.js';

// Failovers to a stale replica (issue 30), shared by the suite's test (a round or two) and the script that
// runs the full count (scripts/stale-replica-rounds.ts). Each round freezes the replica's link at
// the master's proxy (no byte either way, nothing closed), lets a dataset refresh be polled and told (or
// held), SIGKILLs the master and lets the sentinels promote the replica that lacks every write since.

/** One configuration of the rounds: `WAIT` on or off, and how many processes (`start`, then `worker`). */
export interface StaleMode {
  wait: boolean;
  processes: 1 | 2;
  rounds: number;
}

/** What one round came to. */
export interface StaleRound {
  /** POSTs to the events webhook after the freeze that carried an event already received. */
  repeatedMessages: number;
  /** Resends under a delivery id already accepted (a subset of the above). */
  sameIdResends: number;
  /** Whether the critical `state-rolled-back` notice reached the ops webhook in this round. */
  rollbackTold: boolean;
  /** "Polling is behind" criticals (`polling-overdue`) on the ops webhook in this round: a record gone back. */
  pollingBehindTold: number;
  /** Events of the round told. */
  events: number;
  /** From the promotion to the last event of the round on the webhook, ms. */
  toldAfterPromotionMs: number;
}

/**
 * How long the sentinels wait before calling a master down. Not 1 s: every data node sits behind a proxy in
 * this process, and on a loaded machine a pause of a second (of this process or of a node's fork for a
 * full sync) had a sentinel call the just-promoted master down and fail over again, to the node coming back.
 */
const DOWN_AFTER_MS = 3_000;
/** The budget's cap: high enough for a 1 s gate. */
const PER_MINUTE = 1_000;
/** How long the link stays frozen after the round's writes, before the kill: longer than the mark's tick. */
const HOLD_MS = 1_500;

const noticeBody = z.object({ type: z.literal('notice'), key: z.string(), severity: z.string() });

function noticesIn(
  receipts: readonly WebhookReceipt[],
  since: number,
  severity: string,
  key = 'state-rolled-back',
): number {
  return receipts.filter((r) => {
    if (r.at < since) return false;
    const parsed = noticeBody.safeParse(JSON.parse(r.body));
    return parsed.success && parsed.data.key === key && parsed.data.severity === severity;
  }).length;
}

/** POSTs since `since` carrying an event key the webhook had received before them. */
function repeatsSince(hook: WebhookReceiver, since: number): { messages: number; sameId: number } {
  const seen = new Set<string>();
  const seenIds = new Set<string>();
  let messages = 0;
  let sameId = 0;
  for (const receipt of hook.receipts.filter((r) => r.status < 300)) {
    const keys = hookEvents({ ...hook, accepted: () => [receipt] }).map((e) => e.key);
    const again = keys.some((key) => seen.has(key));
    if (receipt.at >= since && again) messages++;
    if (receipt.at >= since && receipt.deliveryId && seenIds.has(receipt.deliveryId)) sameId++;
    for (const key of keys) seen.add(key);
    if (receipt.deliveryId) seenIds.add(receipt.deliveryId);
  }
  return { messages, sameId };
}

function logOf(daemons: readonly DaemonProcess[]): string {
  return daemons.map((d) => `${d.stdout()}\n${d.stderr()}`).join('\n');
}

/** The parts a run holds, for the caller's cleanup. */
export interface StaleRun {
  topology?: ProxiedSentinel;
  stack?: Stack;
  hook?: WebhookReceiver;
  ops?: WebhookReceiver;
  observer?: App;
  daemons: DaemonProcess[];
}

/** Stops and removes everything a run started. */
export async function endStaleRun(run: StaleRun): Promise<void> {
  await killAll(run.daemons);
  await run.observer?.stop(1_000);
  await run.hook?.close();
  await run.ops?.close();
  await run.stack?.cleanup();
  await run.topology?.stop();
}

/** Starts the topology, the stack and the processes of `mode`, then plays its rounds. */
export async function playStaleRounds(mode: StaleMode, run: StaleRun): Promise<StaleRound[]> {
  const topology = await startProxiedSentinel(DOWN_AFTER_MS);
  run.topology = topology;
  const stack = await startStack({
    issuers: 8,
    seed: 7,
    channels: [],
    sandbox: { limits: { perMinute: PER_MINUTE, perDay: 5_000_000 } },
  });
  run.stack = stack;
  const hook = await startWebhookReceiver();
  run.hook = hook;
  const ops = await startWebhookReceiver();
  run.ops = ops;
  const webhook = (name: string, url: string) => ({
    name,
    kind: 'webhook',
    url,
    signingSecret: TEST_SIGNING_SECRET,
    backoff: '100ms',
  });
  updateConfig(stack, (config) => ({
    ...config,
    redis: {
      sentinel: { name: topology.name, nodes: topology.sentinelNodes },
      prefix: stack.prefix,
      liveness: { interval: '1s', timeout: '10s' },
      durability: { replicas: mode.wait ? 'auto' : 0 },
    },
    poll: { gateInterval: '1s', concurrency: 2 },
    budget: { perMinute: PER_MINUTE, perDay: 5_000_000, reserve: 10 },
    channels: [webhook('hook', hook.url), webhook('ops', ops.url)],
    ops: { channel: 'ops' },
    log: { level: 'info', format: 'json' },
  }));
  const observer = await App.open(parseConfig(stringify(stack.configObject), stack.configPath), {
    logger: silentLogger(),
  });
  run.observer = observer;
  run.daemons.push(await spawnRegistered(stack, observer, 'start'));
  if (mode.processes === 2) run.daemons.push(await spawnRegistered(stack, observer, 'worker'));
  const issuers = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
  await waitFor(
    'baseline snapshots of every issuer',
    async () => (await observer.ctx.snapshots.getMany(issuers)).size === issuers.length,
    60_000,
  );
  const rounds: StaleRound[] = [];
  for (let r = 0; r < mode.rounds; r++) {
    rounds.push(await playRound(mode, run, topology, `Stale ${mode.wait ? 'On' : 'Off'} ${r}`));
    if (r < mode.rounds - 1 && rounds.at(-1)?.rollbackTold) {
      // The notice tells an event: cleared a beat later, so that the next round's is raised anew.
      await waitFor('the rollback notice resolved', () => noticesIn(ops.receipts, 0, 'resolved') > r, 60_000);
    }
  }
  for (const daemon of run.daemons) {
    if (daemon.child.exitCode !== null) throw new Error(`a daemon exited:\n${daemon.stderr().slice(-2_000)}`);
  }
  return rounds;
}

async function playRound(
  mode: StaleMode,
  run: StaleRun,
  topology: ProxiedSentinel,
  label: string,
): Promise<StaleRound> {
  const { stack, hook, ops } = run;
  if (!stack || !hook || !ops) throw new Error('the run is not started');
  const { master } = await topology.roles();
  const startedAt = Date.now();
  master.proxy.freezeReplication();
  const heldBefore = (logOf(run.daemons).match(/message not yet durable/g) ?? []).length;
  const expected = refresh(stack, label);
  if (mode.wait) {
    // The refresh is polled and committed on the master; its messages wait for a replica.
    await waitFor(
      'a message held for its replica',
      () => (logOf(run.daemons).match(/message not yet durable/g) ?? []).length > heldBefore,
      60_000,
    );
  } else {
    await waitForEvents(hook, expected, 60_000);
  }
  await sleep(HOLD_MS);
  const promotedAt = await topology.failover();
  await waitForEvents(hook, expected, 90_000);
  const toldAt = Math.max(...hook.receipts.map((r) => r.at));
  await waitFor(
    'the rollback notice',
    () => noticesIn(ops.receipts, startedAt, 'critical') > 0,
    30_000,
  ).catch(() => undefined);
  const repeats = repeatsSince(hook, startedAt);
  return {
    repeatedMessages: repeats.messages,
    sameIdResends: repeats.sameId,
    rollbackTold: noticesIn(ops.receipts, startedAt, 'critical') > 0,
    pollingBehindTold: noticesIn(ops.receipts, startedAt, 'critical', 'polling-overdue'),
    events: expected.length,
    toldAfterPromotionMs: Math.max(0, toldAt - promotedAt),
  };
}

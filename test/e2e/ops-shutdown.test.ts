import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { DeliveryRecord } from '../../src/state/delivery-record.js';
import {
  type DaemonProcess,
  logLines,
  type Stack,
  slackIssuers,
  spawnDaemon,
  startStack,
  stopDaemons,
  updateConfig,
  waitFor,
  waitForLog,
} from './harness.js';
import { settled } from './settled.js';

function mailIssuer(text: string | undefined): string | undefined {
  return /shortwatch · issuer ([A-Z]+-\d+)/.exec(text ?? '')?.[1];
}

/** How many times each value occurs. */
function tally(values: readonly (string | undefined)[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[String(value)] = (counts[String(value)] ?? 0) + 1;
  return counts;
}

/** Resolves with the exit code, or fails the test when the process outlives `timeoutMs`. */
async function exitOf(daemon: DaemonProcess, timeoutMs: number): Promise<number | string> {
  const timeout = sleep(timeoutMs).then(() => 'still running' as const);
  const result = await Promise.race([daemon.exited, timeout]);
  if (result === 'still running')
    throw new Error(`process ${daemon.child.pid} still running:\n${daemon.stderr()}`);
  return result;
}

describe('stopping the daemon', () => {
  let stack: Stack;
  let app: App | undefined;
  const daemons: DaemonProcess[] = [];

  afterEach(async () => {
    await stopDaemons(daemons.splice(0));
    await app?.stop(2_000);
    app = undefined;
    await stack.cleanup();
  });

  async function startWatching(issuers: number, seed: number): Promise<string[]> {
    stack = await startStack({ issuers, seed });
    updateConfig(stack, (config) => ({ ...config, log: { level: 'info', format: 'json' } }));
    app = await stack.openApp();
    const ids = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    return ids;
  }

  it('SIGTERM with a delivery in flight exits 0; after a restart every message arrives exactly once', async () => {
    const ids = await startWatching(6, 41);
    const first = await spawnDaemon(stack, 'start');
    daemons.push(first);
    await waitFor(
      'baseline snapshots',
      async () => (await app?.ctx.snapshots.getMany(ids))?.size === ids.length,
    );

    // Slow Slack: the first two answers take 1.5 s each, so a delivery is in flight when the signal comes.
    stack.slack.script({ status: 200, delayMs: 1_500 }, { status: 200, delayMs: 1_500 });
    ids.forEach((id, n) => {
      stack.sandbox.scenario.disclose(id, `Shutdown Test Partners ${n}`, 0.7 + n / 20);
    });
    await waitFor('a Slack request in flight', () => stack.slack.posts.length >= 1);
    first.kill('SIGTERM');
    expect(await exitOf(first, 30_000)).toBe(0);
    const said = logLines(first.stderr()).map((line) => line.msg);
    expect(said).toContain('stopping: finishing jobs in flight');
    expect(said).toContain('stopped');
    // The signal came before Slack had everything: the rest waits in Redis for the next process.
    const postsAtStop = stack.slack.posts.length;
    expect(postsAtStop).toBeLessThan(ids.length);
    // The request in flight was answered before the process left (its reply is not lost to a retry):
    // every post is recorded as sent, and nothing is left in flight.
    const recorded = app
      ? await new DeliveryRecord(app.redis, app.ctx.prefix).newest(0, Number.MAX_SAFE_INTEGER, 1_000)
      : [];
    const sentToDesk = recorded.filter((row) => row.channel === 'desk' && row.answer === 'ok');
    expect(sentToDesk).toHaveLength(postsAtStop);
    expect(await app?.ctx.outbox.inflight('desk')).toBeNull();

    daemons.push(await spawnDaemon(stack, 'start'));
    await waitFor(
      'every issuer on Slack',
      () => stack.slack.delivered().flatMap((p) => slackIssuers(p.payload)).length >= ids.length,
      30_000,
    );
    await waitFor('every email', () => stack.smtp.mails.length >= ids.length, 30_000);
    // Both outboxes drained and nothing in flight: a duplicate would have had to come from work left.
    await settled(stack);

    const expected = Object.fromEntries(ids.map((id) => [id, 1]));
    expect(tally(stack.slack.posts.flatMap((p) => slackIssuers(p.payload)))).toEqual(expected);
    expect(stack.slack.posts.every((p) => p.status === 200)).toBe(true);
    expect(tally(stack.smtp.mails.map((m) => mailIssuer(m.parsed.text)))).toEqual(expected);
  }, 60_000);

  it('a second signal exits at once, without waiting for the delivery in flight', async () => {
    const ids = await startWatching(3, 43);
    const daemon = await spawnDaemon(stack, 'start');
    daemons.push(daemon);
    await waitFor(
      'baseline snapshots',
      async () => (await app?.ctx.snapshots.getMany(ids))?.size === ids.length,
    );
    await waitForLog(daemon, 'shortwatch running');

    // Shorter than the Slack timeout (10 s), so only the second signal can cut it short.
    stack.slack.script({ status: 200, delayMs: 9_000 });
    const [id] = ids;
    if (!id) throw new Error('no issuer');
    stack.sandbox.scenario.disclose(id, 'Second Signal Capital', 0.9);
    await waitFor('a Slack request in flight', () => stack.slack.posts.length >= 1);
    daemon.kill('SIGTERM');
    await waitForLog(daemon, 'stopping: finishing jobs in flight');
    daemon.kill('SIGTERM');
    // A graceful stop would wait for Slack's answer and exit 0; the second signal exits at once, non-zero.
    expect(await exitOf(daemon, 20_000)).toBe(1);
    expect(logLines(daemon.stderr()).map((line) => line.msg)).toContain('second signal: exiting now');
  }, 60_000);
});

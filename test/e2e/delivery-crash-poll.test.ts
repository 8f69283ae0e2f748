import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { holderKey } from '../../src/positions/index.js';
import {
  type DaemonProcess,
  patchChannel,
  type Stack,
  slackText,
  spawnShortwatch,
  startStack,
  waitFor,
} from './harness.js';

function slackIssuer(payload: unknown): string | undefined {
  return /\(([A-Z]+-\d+)\) · \d+ short position change/.exec(slackText(payload))?.[1];
}

function mailIssuer(text: string | undefined): string | undefined {
  return /shortwatch · issuer ([A-Z]+-\d+)/.exec(text ?? '')?.[1];
}

/*
 * Delivery is exactly once for every message not on the wire when the process dies. A kill while a send
 * is in flight (the receiver has the message, the sender never saw the 200 and never marked the job
 * done) leaves an at-least-once window: the job is stalled, picked up again and sent a second time.
 * No webhook or SMTP exchange can close that window, so this test kills the daemon after the poll
 * committed and queued its deliveries, at a moment when the channels' rate limits hold every queued
 * message back and nothing is in flight.
 */
describe('deliveries: SIGKILL between a poll and its deliveries', () => {
  let stack: Stack;
  let observer: App | undefined;
  const daemons: DaemonProcess[] = [];

  afterEach(async () => {
    for (const daemon of daemons.splice(0)) {
      daemon.kill('SIGKILL');
      await daemon.exited;
    }
    await observer?.stop(2_000);
    observer = undefined;
    await stack.cleanup();
  });

  it('sends each queued message once after a restart', async () => {
    stack = await startStack({ issuers: 6, seed: 7 });
    // One message per 50 s per channel: after the first of a poll goes out, the rest wait in their
    // queues with nothing on the wire, which is the window this test kills the daemon in.
    patchChannel(stack, 'desk', { ratePerSecond: 0.02 });
    patchChannel(stack, 'alerts', { ratePerSecond: 0.02 });
    observer = await stack.openApp();
    const app = observer;
    const issuers = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    daemons.push(spawnShortwatch(['start', '-c', stack.configPath]));
    await waitFor(
      'baseline snapshots',
      async () => (await app.ctx.snapshots.getMany(issuers)).size === issuers.length,
      30_000,
    );

    // A scenario step, plus new holders on issuers it left alone, so one poll round yields several messages.
    const changes = stack.sandbox.scenario.step();
    const expected = changes.map((c) => `${c.issuerId}|${holderKey(c.holder)}|${c.kind}`);
    const quiet = issuers.filter((id) => !changes.some((c) => c.issuerId === id)).slice(0, 3);
    for (const [index, issuerId] of quiet.entries()) {
      const holder = `Kill Window Capital ${index + 1} LLP`;
      stack.sandbox.scenario.disclose(issuerId, holder, 0.61 + index / 10);
      expected.push(`${issuerId}|${holderKey(holder)}|opened`);
    }
    const changed = [...new Set(expected.map((e) => e.split('|')[0]))].sort();
    expect(changed.length).toBeGreaterThanOrEqual(3);

    const desk = app.queues.deliver('desk');
    const alerts = app.queues.deliver('alerts');
    const settledBeforeKill = async () => {
      const logged = (await app.ctx.eventLog.recent({ limit: 500 })).map(
        (e) => `${e.issuer.id}|${e.holderKey}|${e.kind}`,
      );
      if (!expected.every((key) => logged.includes(key))) return false;
      for (const queue of [desk, alerts]) {
        const counts = await queue.getJobCounts('completed', 'waiting', 'active', 'delayed');
        if (counts.completed !== 1 || counts.active !== 0 || counts.waiting !== changed.length - 1)
          return false;
      }
      return stack.slack.delivered().length === 1 && stack.smtp.mails.length === 1;
    };
    await waitFor('the poll committed, one message sent, the rest queued', settledBeforeKill, 30_000, 50);

    const first = daemons[0];
    first?.kill('SIGKILL');
    expect(await first?.exited).toBe('SIGKILL');
    expect(stack.slack.delivered()).toHaveLength(1);
    expect(stack.smtp.mails).toHaveLength(1);

    // The restarted daemon may send at full speed; its queues still hold what the killed one queued.
    patchChannel(stack, 'desk', { ratePerSecond: 20 });
    patchChannel(stack, 'alerts', { ratePerSecond: 50 });
    daemons.push(spawnShortwatch(['start', '-c', stack.configPath]));
    await waitFor('every Slack message', () => stack.slack.delivered().length >= changed.length, 30_000);
    await waitFor('every email', () => stack.smtp.mails.length >= changed.length, 30_000);
    await sleep(2_000);

    const slack = stack.slack.delivered();
    expect(slack.map((p) => slackIssuer(p.payload)).sort()).toEqual(changed);
    expect(new Set(slack.map((p) => JSON.stringify(p.payload))).size).toBe(changed.length);
    expect(stack.smtp.mails.map((m) => mailIssuer(m.parsed.text)).sort()).toEqual(changed);
    const logged = (await app.ctx.eventLog.recent({ limit: 500 })).map(
      (e) => `${e.issuer.id}|${e.holderKey}|${e.kind}`,
    );
    expect(logged.sort()).toEqual(expected.sort());
  }, 60_000);
});

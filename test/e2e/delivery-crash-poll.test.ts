import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { holderKey } from '../../src/positions/index.js';
import {
  type DaemonProcess,
  patchChannel,
  type Stack,
  slackEvents,
  spawnShortwatch,
  startStack,
  waitFor,
} from './harness.js';
import { repeated, settled } from './settled.js';

function mailIssuer(text: string | undefined): string | undefined {
  return /shortwatch · issuer ([A-Z]+-\d+)/.exec(text ?? '')?.[1];
}

/** Events in one plain-text email: one `* ` line each. */
function mailEvents(text: string | undefined): number {
  return (text ?? '').split('\n').filter((line) => line.startsWith('* ')).length;
}

/*
 * Delivery is exactly once for every message not on the wire when the process dies. A kill while a send
 * is in flight (the receiver has the message, the sender never recorded it as sent) leaves an
 * at-least-once window: the in-flight message is sent again, under the same delivery id. No webhook or
 * SMTP exchange can close that window, so this test kills the daemon after the polls committed their
 * events to the channels' outboxes, at a moment when the channels' rates hold every waiting event back
 * and nothing is in flight.
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

  it('sends each waiting event once after a restart', async () => {
    // The killed daemon's sweep or poll is claimed again after 3 s (30 s by default).
    stack = await startStack({
      issuers: 6,
      seed: 7,
      config: { poll: { gateInterval: '1s', concurrency: 4, lockDuration: '3s' } },
    });
    // One message per 10 s per channel: after the first goes out, the rest of the round waits in the
    // outboxes with nothing on the wire, which is the window this test kills the daemon in. (The next
    // send time the killed daemon stored stays in force after the restart, so the window is kept short.)
    patchChannel(stack, 'desk', { ratePerSecond: 0.1 });
    patchChannel(stack, 'alerts', { ratePerSecond: 0.1 });
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

    // Per channel: the events the first message carried plus those still waiting in the outbox are
    // every event of the round, and nothing is in flight.
    const settledBeforeKill = async () => {
      const logged = (await app.ctx.eventLog.recent({ limit: 500 })).map(
        (e) => `${e.issuer.id}|${e.holderKey}|${e.kind}`,
      );
      if (!expected.every((key) => logged.includes(key))) return false;
      const [slack] = stack.slack.delivered();
      const [mail] = stack.smtp.mails;
      if (stack.slack.delivered().length !== 1 || stack.smtp.mails.length !== 1 || !slack || !mail)
        return false;
      const now = Date.now();
      const desk = await app.ctx.outbox.depth('desk', now);
      const alerts = await app.ctx.outbox.depth('alerts', now);
      return (
        desk.inflight === 0 &&
        alerts.inflight === 0 &&
        desk.waiting + slackEvents(slack.payload).length === expected.length &&
        alerts.waiting + mailEvents(mail.parsed.text) === expected.length
      );
    };
    await waitFor('the poll committed, one message sent, the rest waiting', settledBeforeKill, 30_000, 50);

    const first = daemons[0];
    first?.kill('SIGKILL');
    expect(await first?.exited).toBe('SIGKILL');
    expect(stack.slack.delivered()).toHaveLength(1);
    expect(stack.smtp.mails).toHaveLength(1);

    // The restarted daemon may send at full speed; the outboxes still hold what the killed one left.
    patchChannel(stack, 'desk', { ratePerSecond: 20 });
    patchChannel(stack, 'alerts', { ratePerSecond: 50 });
    daemons.push(spawnShortwatch(['start', '-c', stack.configPath]));
    await waitFor(
      'every event on Slack',
      () => stack.slack.delivered().flatMap((p) => slackEvents(p.payload)).length >= expected.length,
      30_000,
    );
    await waitFor('every email', () => stack.smtp.mails.length >= changed.length, 30_000);
    // The killed incarnation's claims lapse (a sweep's lock, a message's 12 s grace) before all is still.
    await settled(stack, { timeoutMs: 45_000 });

    // Slack: each event of the round exactly once. The first message may carry several issuers (a
    // backlog coalesces at one message per 10 s), so events are counted, not messages.
    const slack = stack.slack.delivered();
    expect(slack.flatMap((p) => slackEvents(p.payload)).sort()).toEqual([...expected].sort());
    expect(repeated(slack.map((p) => JSON.stringify(p.payload)))).toEqual([]);
    // E-mail carries one issuer per message: one message per changed issuer.
    expect(stack.smtp.mails.map((m) => mailIssuer(m.parsed.text)).sort()).toEqual(changed);
    expect(stack.smtp.mails.reduce((n, m) => n + mailEvents(m.parsed.text), 0)).toBe(expected.length);
    for (const channel of ['desk', 'alerts']) {
      expect(await app.ctx.outbox.depth(channel, Date.now())).toEqual({
        waiting: 0,
        ready: 0,
        inflight: 0,
        parked: 0,
      });
    }
    const logged = (await app.ctx.eventLog.recent({ limit: 500 })).map(
      (e) => `${e.issuer.id}|${e.holderKey}|${e.kind}`,
    );
    expect(logged.sort()).toEqual(expected.sort());
  }, 120_000);
});

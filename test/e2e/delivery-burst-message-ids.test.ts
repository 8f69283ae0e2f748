import { describe, expect, it } from 'vitest';
import { runMain } from '../cli/run-main.js';
import { patchChannel, startStack, usePerTest, waitFor } from './harness.js';
import { settled } from './settled.js';

// Issue 29: a burst's delivery is one e-mail per issuer, each with its own Message-ID (`<id-n@domain>`),
// while the record named `<id@domain>`: the export could not be matched to a mailbox. The channel is
// held paused until every change waits in its outbox, so that the backlog goes out as bursts.

/** The Message-IDs an export row names (a burst lists one per e-mail, space-separated). */
function messageIdsOf(row: { messageId?: string }): string[] {
  return (row.messageId ?? '').split(' ').filter((id) => id !== '');
}

describe("the record of a burst's e-mails", () => {
  const current = usePerTest();

  it('names the Message-ID of every e-mail the SMTP server received, and no other', async () => {
    const stack = await startStack({ issuers: 12, seed: 5, channels: ['email'] });
    current.stack = stack;
    // Two deliveries a second over five connections: a backlog of more issuers goes out in bursts of two.
    patchChannel(stack, 'alerts', { ratePerSecond: 2, maxConnections: 5 });
    const app = await stack.openApp();
    current.app = app;
    await app.startDaemon({ workerOnly: false });
    const ids = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    await waitFor('baselines', async () => (await app.ctx.snapshots.getMany(ids)).size === ids.length);

    await app.ctx.outbox.setSendState('alerts', { pausedUntil: Date.now() + 3_600_000 });
    // Steps until more issuers wait than the channel sends in a second, each step's events all waiting.
    // Waiting means logged, then queued where routing sent it: not every change is a message (a close
    // of a holder already told to be below 0.5% is in the log only), so the log's verdicts count.
    const issuers = new Set<string>();
    let events = 0;
    const box = stack.keys.outbox('alerts');
    const logged = () => app.ctx.eventLog.recentLogged({ limit: 1_000 });
    while (issuers.size <= 3) {
      const changes = stack.sandbox.scenario.step();
      events += changes.length;
      const all =
        (await waitFor('every change logged', async () => {
          const entries = await logged();
          return entries.length >= events ? entries : undefined;
        })) ?? [];
      const sent = all.filter(({ routes }) =>
        routes.some((route) => route.channel === 'alerts' && route.verdict === 'send'),
      );
      for (const { event } of sent) issuers.add(event.issuer.id);
      await waitFor(
        'every change routed to alerts waiting',
        async () => (await stack.redis.redis.zcard(box.pending)) >= sent.length,
      );
    }
    await app.ctx.outbox.setSendState('alerts', { pausedUntil: 0 });
    await waitFor('one e-mail per issuer told', () => stack.smtp.mails.length >= issuers.size, 30_000);
    await settled(stack);

    const exported = await runMain([
      'deliveries',
      'export',
      '--since',
      '1d',
      '--format',
      'jsonl',
      '-c',
      stack.configPath,
    ]);
    expect(exported.code).toBe(0);
    const rows = exported.stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { channel: string; type: string; messageId?: string });
    const alerts = rows.filter((row) => row.channel === 'alerts');
    // Bursts were sent (else this test proves nothing), each row naming one Message-ID per e-mail.
    expect(alerts.some((row) => row.type === 'batch' && messageIdsOf(row).length > 1)).toBe(true);
    const recorded = alerts.flatMap(messageIdsOf).sort();
    const received = stack.smtp.mails.map((mail) => mail.parsed.messageId ?? '?').sort();
    expect(recorded).toEqual(received);
  }, 90_000);
});

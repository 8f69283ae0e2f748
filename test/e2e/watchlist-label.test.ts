import { describe, expect, it } from 'vitest';
import { eventId, holderKey, snapshotOccurrence } from '../../src/positions/index.js';
import { slackIssuers, slackText, startStack, updateConfig, usePerTest, waitFor } from './harness.js';

// The watchlist `label` is documented as "Display label used in messages": it names the issuer in
// every message, while channel filters and mutes still see the upstream's name and event ids never
// contain it.

describe('watchlist label: the issuer name messages show', () => {
  const current = usePerTest();

  it('shows the label in Slack and e-mail; filters on the upstream name still match; ids do not change', async () => {
    const stack = await startStack({ issuers: 3, seed: 31 });
    current.stack = stack;
    const [byId, byName, plain] = stack.sandbox.scenario.issuers();
    if (!byId || !byName || !plain) throw new Error('the scenario has too few issuers');
    updateConfig(stack, (config) => ({
      ...config,
      watchlist: [
        { id: byId.svc_issuer_id, label: 'Label One' },
        { name: byName.name, label: 'Label Two' },
        { id: plain.svc_issuer_id },
      ],
      channels: (Array.isArray(config.channels) ? config.channels : []).map((channel) =>
        // Slack filters on the upstream's names, as a desk writes them: a label must not hide an issuer.
        channel.name === 'desk'
          ? { ...channel, filter: { issuers: [byId.name, byName.name, plain.name] } }
          : channel,
      ),
    }));
    const app = await stack.openApp();
    current.app = app;
    const reader = app;
    await app.startDaemon({ workerOnly: false });
    const ids = [byId, byName, plain].map((i) => i.svc_issuer_id);
    await waitFor('baseline snapshots', async () => (await reader.ctx.snapshots.getMany(ids)).size === 3);

    // The occurrence each change moves from: the snapshots the disclosure's poll diffs against.
    const baselines = await reader.ctx.snapshots.getMany(ids);
    for (const id of ids) stack.sandbox.scenario.disclose(id, 'Label Probe Capital LLP', 0.77);
    await waitFor(
      'Slack messages about all three issuers',
      () => new Set(stack.slack.delivered().flatMap((post) => slackIssuers(post.payload))).size === 3,
    );
    await waitFor('three e-mails', () => stack.smtp.mails.length >= 3);

    const slack = stack.slack.delivered().map((post) => slackText(post.payload));
    const about = (id: string) => slack.filter((text) => text.includes(`${id} · `));
    expect(about(byId.svc_issuer_id).join('\n')).toContain('Label One');
    expect(about(byName.svc_issuer_id).join('\n')).toContain('Label Two');
    expect(about(plain.svc_issuer_id).join('\n')).toContain(plain.name);
    for (const text of slack) {
      expect(text).not.toContain(byId.name);
      expect(text).not.toContain(byName.name);
    }
    const subjects = stack.smtp.mails.map((mail) => mail.parsed.subject ?? '');
    expect(subjects.some((s) => s.includes('Label One'))).toBe(true);
    expect(subjects.some((s) => s.includes('Label Two'))).toBe(true);

    const events = await reader.ctx.eventLog.recent({ limit: 10 });
    const probe = (id: string) => events.find((e) => e.issuer.id === id);
    expect(probe(byId.svc_issuer_id)?.issuer.name).toBe('Label One');
    expect(probe(plain.svc_issuer_id)?.issuer.name).toBe(plain.name);
    for (const event of events) {
      // The id is the one an unlabelled issuer's event would have: a label never makes an event new.
      expect(event.id).toBe(
        eventId({
          issuerId: event.issuer.id,
          holderKey: holderKey('Label Probe Capital LLP'),
          from: snapshotOccurrence(baselines.get(event.issuer.id) ?? null),
          kind: 'opened',
          previous: null,
          current: event.current,
        }),
      );
    }
    // The snapshot keeps the upstream's name: the label is for messages only.
    const snapshots = await reader.ctx.snapshots.getMany(ids);
    expect(snapshots.get(byId.svc_issuer_id)?.issuerName).toBe(byId.name);
  });
});

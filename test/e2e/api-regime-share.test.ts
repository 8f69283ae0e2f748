import { describe, expect, it } from 'vitest';
import { FELL_BELOW } from '../../src/channels/event-story.js';
import { slackText, startStack, usePerTest, waitFor } from './harness.js';

/**
 * Issue 28: an upstream that stops naming the holders of most watched issuers in one dataset version
 * (what an upstream fed by the UK register would do after 13 July 2026) changed what it publishes. Each
 * issuer is one "named holders no longer published" line, the ops channel one notice with the counts,
 * and no holder is told as having fallen below 0.5%.
 */
describe('the API: ten of twelve issuers emptied in one dataset version', () => {
  const current = usePerTest();

  it('are ten regime notices after the confirming read, one ops notice, no close and no "fell below"', async () => {
    const stack = await startStack({
      issuers: 12,
      seed: 28,
      channels: ['slack', 'ops'],
      // The confirming read a second after the emptied answers (the default waits a sweep interval).
      config: { poll: { gateInterval: '400ms', concurrency: 4, emptiedConfirmAfter: '1s' } },
    });
    current.stack = stack;
    const scenario = stack.sandbox.scenario;
    const ids = scenario.issuers().map((i) => i.svc_issuer_id);
    // Every watched issuer names holders before: a generated one may list none.
    for (const id of ids)
      if ((scenario.active(id) ?? []).length === 0) scenario.disclose(id, 'Baseline Holder LLP', 0.8);
    const app = await stack.openApp();
    current.app = app;
    await app.startDaemon({ workerOnly: false });
    await waitFor('the baseline', async () => (await app.ctx.snapshots.getMany(ids)).size === ids.length);
    const named = ids.filter((id) => (scenario.active(id) ?? []).length > 0);
    expect(named.length).toBe(12);
    const emptied = named.slice(0, 10);
    // One synchronous loop: no request is answered between two drops, so the upstream shows one version.
    for (const id of emptied)
      for (const row of scenario.active(id) ?? []) scenario.drop(id, row.position_holder);

    const regimeEvents = async () =>
      (await app.ctx.eventLog.recent({ limit: 1_000 })).filter(
        (e) => e.aggregate?.kind === 'named-holders-ended',
      );
    await waitFor('ten regime events', async () => (await regimeEvents()).length === 10, 40_000);
    expect((await regimeEvents()).map((e) => e.issuer.id).sort()).toEqual([...emptied].sort());
    const log = await app.ctx.eventLog.recent({ limit: 1_000 });
    expect(log.filter((e) => e.kind === 'closed')).toEqual([]);

    const desk = () => stack.slack.delivered().filter((p) => !p.path.endsWith('/ops'));
    const ops = () => stack.slack.delivered().filter((p) => p.path.endsWith('/ops'));
    // Each emptied issuer's one line, whether its message came alone or coalesced with others.
    const toldOf = (id: string) =>
      desk().some((p) => {
        const text = slackText(p.payload);
        return text.includes(id) && text.includes('no longer published by the upstream');
      });
    await waitFor('the ten issuers told on the desk', () => emptied.every(toldOf));
    await waitFor('the ops notice', () =>
      ops().some((p) => slackText(p.payload).includes('Named holders no longer published by the upstream')),
    );
    const notice = ops()
      .map((p) => slackText(p.payload))
      .filter((text) => text.includes('Named holders no longer published by the upstream'));
    expect(notice).toHaveLength(1);
    expect(notice[0]).toContain('10 of 12 watched issuers that named holders name none');
    const told = desk().map((p) => slackText(p.payload));
    expect(told.filter((text) => text.includes(FELL_BELOW))).toEqual([]);
    // The two issuers still naming holders are told nothing.
    for (const id of named.slice(10)) expect(told.some((text) => text.includes(id))).toBe(false);
  }, 60_000);
});

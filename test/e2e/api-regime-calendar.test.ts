import { describe, expect, it } from 'vitest';
import { FELL_BELOW } from '../../src/channels/event-story.js';
import { MARKET_BOUNDARIES } from '../../src/jobs/observe/boundary.js';
import { slackText, startStack, updateConfig, usePerTest, waitFor } from './harness.js';

/**
 * Issue 28: a UK issuer's holders vanishing from the API after 13 July 2026 are the regime boundary
 * (the built-in calendar, by the watchlist entry's `market`), even when it is the only issuer watched:
 * told at once as "named holders no longer published", one ops notice naming the calendar, no close.
 */
describe('the API: a UK issuer emptied after the calendar boundary', () => {
  const current = usePerTest();

  it('is a boundary notice at once, even alone on the watchlist, never a close', async () => {
    const stack = await startStack({
      issuers: 2,
      seed: 13,
      channels: ['slack', 'ops'],
      // The share rule would decide only after this wait: a notice within the test's window is the calendar's.
      config: { poll: { gateInterval: '400ms', concurrency: 2, emptiedConfirmAfter: '1h' } },
    });
    current.stack = stack;
    const scenario = stack.sandbox.scenario;
    const [id] = scenario.issuers().map((i) => i.svc_issuer_id);
    if (id === undefined) throw new Error('no issuer');
    scenario.disclose(id, 'Calendar Check Capital', 0.9);
    updateConfig(stack, (config) => ({ ...config, watchlist: [{ id, market: 'GB' }] }));
    const app = await stack.openApp();
    current.app = app;
    // The daemon's own clock places it after the UK's boundary (the ANSP starts on 13 July 2026).
    const uk = MARKET_BOUNDARIES.find((b) => b.market === 'GB');
    expect(app.ctx.now().toISOString().slice(0, 10) >= (uk?.replacedFrom ?? '9999')).toBe(true);
    await app.startDaemon({ workerOnly: false });
    expect(app.settings.watched).toEqual([expect.objectContaining({ id, market: 'GB' })]);
    await waitFor('the baseline', async () => (await app.ctx.snapshots.get(id)) !== null);
    const holders = scenario.active(id) ?? [];
    expect(holders.length).toBeGreaterThan(0);
    for (const row of holders) scenario.drop(id, row.position_holder);

    const log = async () => app.ctx.eventLog.recent({ limit: 100 });
    await waitFor('the regime event', async () =>
      (await log()).some((e) => e.aggregate?.kind === 'named-holders-ended'),
    );
    expect((await log()).map((e) => [e.issuer.id, e.aggregate?.kind ?? e.kind])).toEqual([
      [id, 'named-holders-ended'],
    ]);
    const ops = () =>
      stack.slack
        .delivered()
        .filter((p) => p.path.endsWith('/ops'))
        .map((p) => slackText(p.payload));
    await waitFor('the ops notice', () =>
      ops().some((text) => text.includes('Named holders no longer published by the upstream')),
    );
    const notices = ops().filter((text) => text.includes('Named holders no longer published'));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain('is in a market whose named holders have ended');
    const desk = () =>
      stack.slack
        .delivered()
        .filter((p) => !p.path.endsWith('/ops'))
        .map((p) => slackText(p.payload));
    await waitFor('the desk told', () => desk().some((text) => text.includes(id)));
    expect(desk().filter((text) => text.includes(FELL_BELOW))).toEqual([]);
    expect(desk().some((text) => text.includes('no longer published by the upstream'))).toBe(true);
  }, 30_000);
});

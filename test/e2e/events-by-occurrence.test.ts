import { describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { holderKey } from '../../src/positions/index.js';
import { patchChannel, type Stack, slackText, startStack, usePerTest, waitFor } from './harness.js';

// Issue 20, findings 1 and 2, from outside: the sandbox over HTTP, the daemon in this process, the Slack
// stand-in and a real SMTP server. A holder's row missing from one answer, back, then really gone, is
// four changes told four times; a channel that never took a fall below hears of it through the close.

const HOLDER = 'Occurrence Check Capital';

async function holderEvents(app: App, issuerId: string): Promise<Array<{ id: string; kind: string }>> {
  const events = await app.ctx.eventLog.recent({ limit: 1_000 });
  return events
    .filter((e) => e.issuer.id === issuerId && e.holderKey === holderKey(HOLDER))
    .map((e) => ({ id: e.id, kind: e.kind, at: e.detectedAt }))
    .sort((a, b) => a.at.localeCompare(b.at))
    .map(({ id, kind }) => ({ id, kind }));
}

/** The positions answer as the sandbox gives it now, without the holder's row, stamped `version`. */
async function answerWithout(stack: Stack, issuerId: string, version: string): Promise<unknown> {
  const response = await fetch(`${stack.sandbox.url}/issuers/${issuerId}/positions?status=active`, {
    headers: { authorization: 'Bearer sandbox-key' },
  });
  const body = (await response.json()) as { data: Array<{ position_holder: string }> };
  return { ...body, data: body.data.filter((row) => row.position_holder !== HOLDER), last_updated: version };
}

function later(version: string | null, minutes: number): string {
  return new Date(Date.parse(version ?? '2026-01-01T00:00:00Z') + minutes * 60_000).toISOString();
}

describe('events identified by occurrence (issue 20)', () => {
  const current = usePerTest();

  async function start(
    seed: number,
    prepare: (stack: Stack) => void = () => undefined,
  ): Promise<{ app: App; stack: Stack; issuerId: string }> {
    const stack = await startStack({
      issuers: 3,
      seed,
      channels: ['slack', 'email'],
      // No flap hold: each crossing is its own message, so each can be counted.
      config: { poll: { gateInterval: '400ms' }, alerts: { flapWindow: '0s' } },
    });
    current.stack = stack;
    const issuerId = stack.sandbox.scenario.issuers()[0]?.svc_issuer_id;
    if (!issuerId) throw new Error('scenario too small');
    prepare(stack);
    return { app: await stack.openApp(), stack, issuerId };
  }

  it('a row missing from one answer, back, then really gone: every transition logged and told once', async () => {
    const { app, stack, issuerId } = await start(71);
    current.app = app;
    const { scenario } = stack.sandbox;
    await app.startDaemon({ workerOnly: false });
    await waitFor('baseline', async () => (await app.ctx.snapshots.get(issuerId)) !== null);

    scenario.disclose(issuerId, HOLDER, 0.8);
    await waitFor('the opening', async () => (await holderEvents(app, issuerId)).length === 1);
    // One answer leaves the row out (a single holder's close needs no second answer) ...
    const v2 = later(scenario.lastUpdated(), 1);
    stack.sandbox.faults.inject({
      operation: 'positions',
      issuerId,
      body: await answerWithout(stack, issuerId, v2),
    });
    scenario.setLastUpdated(v2);
    await waitFor('the close', async () => (await holderEvents(app, issuerId)).length === 2);
    // ... the next has it again, with the same value and date ...
    const v3 = later(v2, 1);
    scenario.setLastUpdated(v3);
    await waitFor('the reopening', async () => (await holderEvents(app, issuerId)).length === 3);
    // ... and then it really leaves the register (versions set by hand keep moving forward).
    scenario.drop(issuerId, HOLDER);
    scenario.setLastUpdated(later(v3, 1));
    await waitFor('the real close', async () => (await holderEvents(app, issuerId)).length === 4);

    const events = await holderEvents(app, issuerId);
    expect(events.map((e) => e.kind)).toEqual(['opened', 'closed', 'opened', 'closed']);
    expect(new Set(events.map((e) => e.id)).size).toBe(4);
    await waitFor(
      'four Slack messages about the holder',
      () => stack.slack.delivered().filter((post) => slackText(post.payload).includes(HOLDER)).length >= 4,
    );
    const told = stack.slack.delivered().filter((post) => slackText(post.payload).includes(HOLDER));
    expect(told).toHaveLength(4);
  });

  it('a channel that filtered out the fall below gets the close; the channel told the fall does not repeat it', async () => {
    // The e-mail channel takes closes only: it never hears of the fall below the 0.5% threshold.
    const { app, stack, issuerId } = await start(73, (s) =>
      patchChannel(s, 'alerts', { filter: { kinds: ['closed'] } }),
    );
    current.app = app;
    const { scenario } = stack.sandbox;
    await app.startDaemon({ workerOnly: false });
    await waitFor('baseline', async () => (await app.ctx.snapshots.get(issuerId)) !== null);

    scenario.disclose(issuerId, HOLDER, 0.6);
    await waitFor('the opening', async () => (await holderEvents(app, issuerId)).length === 1);
    scenario.disclose(issuerId, HOLDER, 0.4);
    await waitFor('the fall below', async () => (await holderEvents(app, issuerId)).length === 2);
    await waitFor('the desk told of the fall', () =>
      stack.slack.delivered().some((post) => slackText(post.payload).includes('fell below')),
    );
    scenario.drop(issuerId, HOLDER);
    await waitFor('the confirmed close', async () => (await holderEvents(app, issuerId)).length === 3);
    await waitFor('an e-mail about the close', () =>
      stack.smtp.mails.some((mail) => (mail.parsed.text ?? '').includes(HOLDER)),
    );
    const verdicts = (await app.ctx.eventLog.recentLogged({ limit: 1_000 }))
      .filter(({ event }) => event.kind === 'closed' && event.holderKey === holderKey(HOLDER))
      .flatMap(({ routes }) => routes.map((r) => `${r.channel}:${r.verdict}`));
    expect(verdicts).toContain('alerts:send');
    expect(verdicts).toContain('desk:skip');
    const aboutHolder = stack.slack.delivered().filter((post) => slackText(post.payload).includes(HOLDER));
    expect(aboutHolder).toHaveLength(2);
  });
});

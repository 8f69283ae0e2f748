import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { holderKey } from '../../src/positions/index.js';
import { type Stack, startStack, waitFor } from './harness.js';
import { settled } from './settled.js';

/** Event keys a Slack payload mentions, read from its plain-text fallback by holder and issuer. */
function countDelivered(stack: Stack): number {
  return stack.slack.delivered().length;
}

describe('pipeline: sandbox → poll → diff → Slack and email', () => {
  let stack: Stack;
  let app: App | undefined;

  afterEach(async () => {
    await app?.stop(2_000);
    app = undefined;
    await stack.cleanup();
  });

  it('takes a silent baseline, then delivers each step change exactly once to Slack and email', async () => {
    stack = await startStack({ issuers: 5 });
    app = await stack.openApp();
    await app.startDaemon({ workerOnly: false });
    const issuers = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    await waitFor(
      'baseline snapshots',
      async () => (await app!.ctx.snapshots.getMany(issuers)).size === issuers.length,
    );
    expect(countDelivered(stack)).toBe(0);
    expect(stack.smtp.mails).toHaveLength(0);

    const changes = stack.sandbox.scenario.step();
    expect(changes.length).toBeGreaterThan(0);
    const changedIssuers = new Set(changes.map((c) => c.issuerId));
    await waitFor(
      'one Slack message per changed issuer',
      () => stack.slack.delivered().length >= changedIssuers.size,
    );
    await waitFor('one email per changed issuer', () => stack.smtp.mails.length >= changedIssuers.size);

    const events = await app.ctx.eventLog.recent({ limit: 500 });
    const seen = events.map((e) => `${e.issuer.id}|${e.holderKey}|${e.kind}`).sort();
    const expected = changes.map((c) => `${c.issuerId}|${holderKey(c.holder)}|${c.kind}`).sort();
    expect(seen).toEqual(expected);

    // Nothing more arrives: each change was delivered once.
    await settled(stack);
    expect(stack.slack.delivered()).toHaveLength(changedIssuers.size);
    expect(stack.smtp.mails).toHaveLength(changedIssuers.size);
  });
});

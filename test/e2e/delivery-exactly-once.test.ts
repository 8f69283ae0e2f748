import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import type { CapturedSlackPost } from '../../src/demo/slack-capture.js';
import type { CapturedMail } from '../../src/demo/smtp-capture.js';
import { holderKey } from '../../src/positions/index.js';
import type { ScenarioChange } from '../../src/sandbox/index.js';
import { type Stack, slackText, startStack, waitFor } from './harness.js';
import { repeated, settled } from './settled.js';

/** What one delivered message says: which issuer, and the text to look for holders in. */
interface Seen {
  issuerId: string;
  events: number;
  text: string;
}

const mrkdwn = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

function seenInSlack(post: CapturedSlackPost): Seen {
  const text = slackText(post.payload);
  // The headline counts the changes; the context line names the issuer by id.
  const count = /: (\d+) short position changes?$/m.exec(text)?.[1];
  const issuerId = /^([A-Z]+-\d+) · Issuer total /m.exec(text)?.[1];
  if (!count || !issuerId) throw new Error(`no issuer line in Slack payload: ${text}`);
  return { issuerId, events: Number(count), text };
}

function seenInMail(mail: CapturedMail): Seen {
  const text = mail.parsed.text ?? '';
  const match = /shortwatch · issuer ([A-Z]+-\d+)/.exec(text);
  if (!match?.[1]) throw new Error(`no issuer footer in email: ${text}`);
  return { issuerId: match[1], events: text.split('\n').filter((l) => l.startsWith('* ')).length, text };
}

/** The changes of one step, grouped as the daemon groups them: one message per issuer per channel. */
function byIssuer(changes: readonly ScenarioChange[]): Map<string, ScenarioChange[]> {
  const groups = new Map<string, ScenarioChange[]>();
  for (const change of changes) groups.set(change.issuerId, [...(groups.get(change.issuerId) ?? []), change]);
  return groups;
}

/** One step's messages on one channel match its changes: one per issuer, every holder named. */
function expectStepDelivered(
  seen: readonly Seen[],
  groups: Map<string, ScenarioChange[]>,
  asSent: (s: string) => string,
) {
  expect(seen.map((s) => s.issuerId).sort()).toEqual([...groups.keys()].sort());
  for (const message of seen) {
    const changes = groups.get(message.issuerId) ?? [];
    expect(message.events).toBe(changes.length);
    for (const change of changes) expect(message.text).toContain(asSent(change.holder));
  }
}

async function deliveryCount(app: App, channel: string, outcome: string): Promise<number> {
  const { values } = await app.metrics.deliveries.get();
  return values.find((v) => v.labels.channel === channel && v.labels.outcome === outcome)?.value ?? 0;
}

describe('deliveries: every change reaches each channel exactly once', () => {
  let stack: Stack;
  let app: App | undefined;

  afterEach(async () => {
    await app?.stop(2_000);
    app = undefined;
    await stack.cleanup();
  });

  it('through Slack 429 (Retry-After) and 500, and SMTP 451, over several steps', async () => {
    stack = await startStack({ issuers: 6, seed: 7 });
    app = await stack.openApp();
    await app.startDaemon({ workerOnly: false });
    const issuers = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    await waitFor(
      'baseline snapshots',
      async () => (await app?.ctx.snapshots.getMany(issuers))?.size === issuers.length,
    );

    const steps: ScenarioChange[][] = [];
    for (let step = 0; step < 3; step++) {
      if (step === 1) {
        // The first Slack request of this step is told to wait 1 s, the next one fails; one email gets 451.
        stack.slack.script(
          { status: 429, body: 'rate_limited', headers: { 'retry-after': '1' } },
          { status: 500, body: 'rollup_error' },
        );
        stack.smtp.script({ responseCode: 451, message: '4.3.0 Try again later' });
      }
      const slackBefore = stack.slack.delivered().length;
      const mailsBefore = stack.smtp.mails.length;
      const changes = stack.sandbox.scenario.step();
      const groups = byIssuer(changes);
      steps.push(changes);
      await waitFor(
        `step ${step}: ${groups.size} Slack messages`,
        () => stack.slack.delivered().length >= slackBefore + groups.size,
      );
      await waitFor(
        `step ${step}: ${groups.size} emails`,
        () => stack.smtp.mails.length >= mailsBefore + groups.size,
      );
      // Any duplicate of this step is in before the next step starts: nothing is left to send it.
      await settled(stack);
      const slackSeen = stack.slack.delivered().slice(slackBefore).map(seenInSlack);
      const mailSeen = stack.smtp.mails.slice(mailsBefore).map(seenInMail);
      expectStepDelivered(slackSeen, groups, mrkdwn);
      expectStepDelivered(mailSeen, groups, (s) => s);
    }

    // The event log holds exactly the changes of every step, once each.
    const all = steps.flat();
    const logged = (await app.ctx.eventLog.recent({ limit: 1_000 })).map(
      (e) => `${e.issuer.id}|${e.holderKey}|${e.kind}`,
    );
    expect(logged.sort()).toEqual(all.map((c) => `${c.issuerId}|${holderKey(c.holder)}|${c.kind}`).sort());

    // Per channel: one message per (issuer, poll) group, and no payload twice.
    const groupsTotal = steps.reduce((sum, changes) => sum + byIssuer(changes).size, 0);
    const slack = stack.slack.delivered();
    expect(slack).toHaveLength(groupsTotal);
    expect(repeated(slack.map((p) => JSON.stringify(p.payload)))).toEqual([]);
    expect(stack.smtp.mails).toHaveLength(groupsTotal);
    expect(repeated(stack.smtp.mails.map((m) => m.parsed.text))).toEqual([]);
    const perIssuer = (seen: Seen[]) =>
      Object.fromEntries(issuers.map((id) => [id, seen.filter((s) => s.issuerId === id).length]));
    const expectedPerIssuer = Object.fromEntries(
      issuers.map((id) => [id, steps.filter((changes) => changes.some((c) => c.issuerId === id)).length]),
    );
    expect(perIssuer(slack.map(seenInSlack))).toEqual(expectedPerIssuer);
    expect(perIssuer(stack.smtp.mails.map(seenInMail))).toEqual(expectedPerIssuer);

    // The 429 paused the channel until the end its Retry-After gave (recorded as the channel's
    // `pausedUntil`): no request reached Slack within the pause; then 500, then 200.
    const statuses = stack.slack.posts.map((p) => p.status);
    const limited = statuses.indexOf(429);
    expect(limited).toBeGreaterThanOrEqual(0);
    expect(statuses.slice(limited, limited + 3)).toEqual([429, 500, 200]);
    const { pausedUntil } = await app.ctx.outbox.sendState('desk');
    expect(pausedUntil).toBeGreaterThan(stack.slack.posts[limited]?.receivedAt.getTime() ?? 0);
    const withinPause = stack.slack.posts
      .slice(limited + 1)
      .filter((p) => p.receivedAt.getTime() < pausedUntil);
    expect(withinPause).toEqual([]);
    expect(statuses.filter((s) => s !== 200)).toEqual([429, 500]);
    expect(await deliveryCount(app, 'desk', 'rate_limited')).toBe(1);
    expect(await deliveryCount(app, 'desk', 'retried')).toBe(1);
    expect(await deliveryCount(app, 'alerts', 'retried')).toBe(1);
    expect(await deliveryCount(app, 'desk', 'sent')).toBe(groupsTotal);
    expect(await deliveryCount(app, 'alerts', 'sent')).toBe(groupsTotal);
    // Nothing parked, nothing left waiting or in flight in either outbox.
    const now = Date.now();
    for (const channel of ['desk', 'alerts']) {
      expect(await app.ctx.outbox.depth(channel, now)).toEqual({
        waiting: 0,
        ready: 0,
        inflight: 0,
        parked: 0,
      });
      expect(await app.ctx.outbox.parked(channel)).toEqual([]);
    }
  }, 60_000);
});

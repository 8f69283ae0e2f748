import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { SlackWebApiStandIn, type StoredMessage } from '../helpers/slack-web-api-stand-in.js';
import {
  addChannel,
  type DaemonProcess,
  patchChannel,
  type Stack,
  slackIssuers,
  spawnDaemon,
  startStack,
  stopDaemons,
  waitFor,
} from './harness.js';
import { channelSettled, repeated } from './settled.js';

const TOKEN = 'xoxb-5555-6666-E2eBotToken';
const CONVERSATION = 'C0E2EDESK';
const ISSUERS = 40;

/** The issuer a message speaks of (its context line), or '?' for one that speaks of none (a notice). */
function issuerOf(message: StoredMessage): string {
  return slackIssuers(message)[0] ?? '?';
}

/*
 * A Slack app channel against the Web API stand-in, through the daemon: a burst of 40 issuers is 40
 * thread parents, one issuer each, a later change of one issuer is a reply in its thread, and a flap
 * (a fall below 0.5% and back within the flap window) edits the message that told the fall. The daemon
 * is SIGKILLed mid-burst at a moment when nothing is in flight (the channel's rate holds the rest back),
 * and the restarted daemon repeats nothing: the outbox resumes where it stopped, and the parents' ts
 * kept in Redis keep the thread. (A kill while a post is on the wire would repeat that one post: the Web
 * API takes no idempotency key; docs/operations.md says so.)
 */
describe('slack-app: threads per issuer through the daemon, across a SIGKILL', () => {
  let stack: Stack;
  let observer: App | undefined;
  const slack = new SlackWebApiStandIn(TOKEN, [CONVERSATION]);
  const daemons: DaemonProcess[] = [];

  afterEach(async () => {
    await stopDaemons(daemons.splice(0));
    await observer?.stop(2_000);
    observer = undefined;
    await slack.stop();
    await stack.cleanup();
  });

  it('posts 40 parents, replies in a thread, edits a flap in place, and repeats nothing after kill -9', async () => {
    const apiUrl = await slack.start();
    // Operator notices (issuers overdue while the first polls run) go to the ops channel, not this one.
    // A crossing back over 0.5% within 5 s is a flap: its changes are held and told as one correction.
    stack = await startStack({
      issuers: ISSUERS,
      seed: 11,
      channels: ['ops'],
      config: { alerts: { flapWindow: '5s' } },
    });
    // One issuer every 2 s while the burst is killed: after the first parents the rest waits in the
    // outbox with nothing on the wire.
    addChannel(stack, {
      name: 'desk-app',
      kind: 'slack-app',
      token: TOKEN,
      channel: CONVERSATION,
      apiUrl,
      ratePerSecond: 0.5,
      backoff: '200ms',
      attempts: 6,
    });
    observer = await stack.openApp();
    const app = observer;
    const issuers = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    daemons.push(await spawnDaemon(stack, 'start'));
    await waitFor(
      'baseline snapshots',
      async () => (await app.ctx.snapshots.getMany(issuers)).size === issuers.length,
      30_000,
    );
    expect(slack.posted).toEqual([]);

    // The burst: a new holder in every issuer, one dataset refresh.
    for (const [index, issuerId] of issuers.entries())
      stack.sandbox.scenario.disclose(issuerId, `Burst Capital ${index + 1} LLP`, 0.6 + index / 100);
    const midBurst = async () => {
      if (slack.posted.length === 0) return false;
      const depth = await app.ctx.outbox.depth('desk-app', Date.now());
      return depth.inflight === 0 && depth.waiting + slack.posted.length === ISSUERS;
    };
    await waitFor('the burst committed, its first parents posted, nothing in flight', midBurst, 30_000, 50);
    const first = daemons.pop();
    first?.kill('SIGKILL');
    expect(await first?.exited).toBe('SIGKILL');
    const beforeKill = slack.posted.length;
    expect(beforeKill).toBeLessThan(ISSUERS);

    // The restarted daemon at 20 a second: a delivery carries 20 issuers, each its own parent; the
    // stand-in lets 8 posts a second through, so a 429 is met and waited out once in place.
    patchChannel(stack, 'desk-app', { ratePerSecond: 20 });
    slack.limit('chat.postMessage', { max: 8, windowMs: 1_000 });
    daemons.push(await spawnDaemon(stack, 'start'));
    await waitFor('40 parents', () => slack.parents().length >= ISSUERS, 30_000);

    // A second change of one issuer: a reply in its thread.
    const [again] = issuers;
    stack.sandbox.scenario.disclose(again ?? '', 'Second Change Partners LLP', 0.75);
    await waitFor('a reply', () => slack.posted.length > ISSUERS, 30_000);

    // A flap: another issuer's burst holder falls below 0.5% (a reply in its thread), then is back above
    // within the flap window: the held change edits that reply in place, posting nothing new.
    const flapping = issuers[1] ?? '';
    stack.sandbox.scenario.disclose(flapping, 'Burst Capital 2 LLP', 0.45);
    await waitFor('the fall below', () => slack.posted.length > ISSUERS + 1, 30_000);
    const fall = slack.posted.at(-1);
    stack.sandbox.scenario.disclose(flapping, 'Burst Capital 2 LLP', 0.55);
    await waitFor('the edit', () => (fall?.edits ?? 0) > 0, 30_000);
    // Settled for this channel: every event of the burst and the second change logged, its outbox empty
    // with nothing in flight, and the posts counted twice alike. (The whole deployment's `settled` waits
    // on 40 issuers' stale polls and the ops channel's notices, which never send here.)
    await channelSettled(app, 'desk-app', ISSUERS + 3, () => slack.posted.length);

    const parents = slack.parents();
    expect(parents.map(issuerOf).sort()).toEqual([...issuers].sort());
    expect(repeated(parents.map(issuerOf))).toEqual([]);
    const parentOf = parents.find((m) => issuerOf(m) === again);
    const flapParent = parents.find((m) => issuerOf(m) === flapping);
    const replies = slack.posted.filter((m) => m.thread_ts !== undefined);
    expect(replies.map((m) => [m.thread_ts, issuerOf(m), m.edits])).toEqual([
      [parentOf?.ts, again, 0],
      [flapParent?.ts, flapping, 1],
    ]);
    expect(fall?.text).toContain('corrected with the later changes of Burst Capital 2 LLP');
    expect(slack.limited.get('chat.postMessage') ?? 0).toBeGreaterThan(0);
    expect(await app.ctx.outbox.depth('desk-app', Date.now())).toEqual({
      waiting: 0,
      ready: 0,
      inflight: 0,
      parked: 0,
    });
  }, 90_000);
});

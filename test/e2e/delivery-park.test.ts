import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import type { Parked } from '../../src/state/outbox.js';
import {
  patchChannel,
  runShortwatch,
  type Stack,
  slackIssuers,
  slackText,
  startStack,
  waitFor,
} from './harness.js';
import { settled } from './settled.js';

function issuerOf(parked: Parked): string {
  if (parked.message.type !== 'events')
    throw new Error(`expected an events message, got ${parked.message.type}`);
  return parked.message.issuer.id;
}

function mailIssuer(text: string | undefined): string | undefined {
  return /shortwatch · issuer ([A-Z]+-\d+)/.exec(text ?? '')?.[1];
}

describe('deliveries: a permanent failure parks the message, raises a notice, and is replayable', () => {
  let stack: Stack;
  let app: App | undefined;

  afterEach(async () => {
    await app?.stop(2_000);
    app = undefined;
    await stack.cleanup();
  });

  it('parks on Slack 404 no_service and SMTP 550, lists them, and retries them from the CLI', async () => {
    stack = await startStack({ issuers: 6, seed: 11, channels: ['slack', 'email', 'ops'] });
    // The ops channel takes notices only (no position reaches 100%), so a scripted Slack answer can only meet a desk request.
    patchChannel(stack, 'ops', { filter: { minValue: 100 } });
    app = await stack.openApp();
    await app.startDaemon({ workerOnly: false });
    const issuers = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    await waitFor(
      'baseline snapshots',
      async () => (await app?.ctx.snapshots.getMany(issuers))?.size === issuers.length,
    );

    stack.slack.script({ status: 404, body: 'no_service' });
    stack.smtp.script({ responseCode: 550, message: '5.1.1 Mailbox unavailable' });
    const changed = [...new Set(stack.sandbox.scenario.step().map((c) => c.issuerId))].sort();
    const parked = async (channel: string) => (await app?.ctx.outbox.parked(channel)) ?? [];
    await waitFor('a parked desk delivery', async () => (await parked('desk')).length === 1);
    await waitFor('a parked email delivery', async () => (await parked('alerts')).length === 1);
    const [deskParked] = await parked('desk');
    const [alertsParked] = await parked('alerts');
    if (!deskParked || !alertsParked) throw new Error('no parked messages');
    // Parked at once: no retries for a permanent answer, whatever `attempts` says.
    expect(deskParked.attempts).toBe(1);
    expect(alertsParked.attempts).toBe(1);
    expect(deskParked.lastError).toContain('no_service');

    const noticeKeys = async () => (await app?.ctx.notices.list())?.map((n) => n.key).sort();
    expect(await noticeKeys()).toEqual(['channel-parked-alerts', 'channel-parked-desk']);
    const opsPosts = () => stack.slack.delivered().filter((p) => p.path.endsWith('/ops'));
    await waitFor('two notices on the ops channel', () => opsPosts().length >= 2);
    // The other deliveries of the step went through.
    await waitFor(
      'the rest on Slack',
      () => stack.slack.delivered().length - opsPosts().length >= changed.length - 1,
    );
    await waitFor('the rest by email', () => stack.smtp.mails.length >= changed.length - 1);

    const listed = await runShortwatch(['deliveries', '--failed', '-c', stack.configPath]);
    expect(listed.code).toBe(0);
    const parkedRows = listed.stdout.split('\n').filter((line) => /^\S+ +\S+ +parked /.test(line));
    expect(parkedRows).toHaveLength(2);
    expect(parkedRows.find((line) => line.includes(deskParked.deliveryId))).toMatch(/^desk .*no_service/);
    expect(parkedRows.find((line) => line.includes(alertsParked.deliveryId))).toMatch(/^alerts .*550/);
    expect(listed.stdout).toMatch(/^2 rows\./m);

    // Retrying one message leaves the other channel's parked delivery, and its notice, in place.
    const one = await runShortwatch(['deliveries', 'retry', deskParked.deliveryId, '-c', stack.configPath]);
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/1 deliveries queued again/);
    await waitFor('the desk retry delivered', () =>
      stack.slack.delivered().some((p) => slackIssuers(p.payload).includes(issuerOf(deskParked))),
    );
    expect(await noticeKeys()).toEqual(['channel-parked-alerts']);
    expect(await parked('desk')).toEqual([]);
    expect((await parked('alerts')).map((p) => p.deliveryId)).toEqual([alertsParked.deliveryId]);

    const all = await runShortwatch(['deliveries', 'retry', '--all', '-c', stack.configPath]);
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(/1 deliveries queued again/);
    const retriedMail = await waitFor('the email retry delivered', () =>
      stack.smtp.mails.find((m) => mailIssuer(m.parsed.text) === issuerOf(alertsParked)),
    );
    // Sent again under the delivery id it was parked with.
    expect(retriedMail?.parsed.messageId).toBe(`<${alertsParked.deliveryId}@example.test>`);
    await waitFor('notices cleared', async () => (await noticeKeys())?.length === 0);

    // Settled: each changed issuer reached each channel exactly once; ops got one notice per problem.
    await settled(stack);
    const deskIssuers = stack.slack
      .delivered()
      .filter((p) => !p.path.endsWith('/ops'))
      .flatMap((p) => slackIssuers(p.payload));
    expect(deskIssuers.sort()).toEqual(changed);
    expect(stack.smtp.mails.map((m) => mailIssuer(m.parsed.text)).sort()).toEqual(changed);
    expect(await parked('desk')).toEqual([]);
    expect(await parked('alerts')).toEqual([]);
    const opsTexts = opsPosts().map((p) => slackText(p.payload));
    const count = (pattern: RegExp) => opsTexts.filter((t) => pattern.test(t)).length;
    expect(count(/Deliveries to desk are parked/)).toBe(2); // raised, then resolved
    expect(count(/Resolved: Deliveries to desk are parked/)).toBe(1);
    expect(count(/Deliveries to alerts are parked/)).toBe(2);
    expect(count(/Resolved: Deliveries to alerts are parked/)).toBe(1);
    expect(opsPosts()).toHaveLength(4);
  }, 60_000);
});

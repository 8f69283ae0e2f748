import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import type { CapturedMail } from '../../src/demo/smtp-capture.js';
import {
  addChannel,
  patchChannel,
  runShortwatch,
  type Stack,
  slackText,
  startStack,
  waitFor,
} from './harness.js';

const MINUTE = 60_000;

function utcClock(ms: number): string {
  return new Date(ms).toISOString().slice(11, 16);
}

/** The next instant after `now` at which a UTC clock shows `clock` (HH:MM). */
function nextUtc(clock: string, now: number): number {
  const today = Date.parse(`${new Date(now).toISOString().slice(0, 10)}T${clock}:00.000Z`);
  return today > now ? today : today + 24 * 60 * MINUTE;
}

const isDigest = (mail: CapturedMail) => mail.parsed.headers.get('x-shortwatch-message') === 'digest';
const mailText = (mail: CapturedMail) => mail.parsed.text ?? '';

/** The rows of `shortwatch route`: channel → verdict. */
function verdicts(stdout: string): Record<string, string> {
  // The rows after the table's rule (a note on how the holder was read may come before the table).
  const lines = stdout.split('\n');
  const rows = lines.slice(lines.findIndex((line) => /^-{3,}/.test(line.trim())) + 1);
  return Object.fromEntries(rows.map((row) => row.split(/\s+/).slice(0, 2)).filter((r) => r.length === 2));
}

describe('deliveries: quiet hours, mutes and route, end to end', () => {
  let stack: Stack;
  let app: App | undefined;

  afterEach(async () => {
    await app?.stop(2_000);
    app = undefined;
    await stack.cleanup();
  });

  it('holds a channel in quiet hours until they end, and says so in route', async () => {
    stack = await startStack({ issuers: 4, seed: 3 });
    const now = Date.now();
    // Quiet from an hour ago to two hours from now (UTC); the email channel has none.
    const end = utcClock(now + 2 * 60 * MINUTE);
    patchChannel(stack, 'desk', { quietHours: { start: utcClock(now - 60 * MINUTE), end, timezone: 'UTC' } });
    app = await stack.openApp();
    const running = app;
    await running.startDaemon({ workerOnly: false });
    const issuers = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    await waitFor(
      'baseline snapshots',
      async () => (await running.ctx.snapshots.getMany(issuers)).size === issuers.length,
    );

    const issuerId = issuers[0] ?? '';
    stack.sandbox.scenario.disclose(issuerId, 'Night Owl Capital LLP', 0.8);
    await waitFor('the email, which has no quiet hours', () => stack.smtp.mails.length === 1);
    const deskBox = stack.keys.outbox('desk');
    const deskDepth = () => running.ctx.outbox.depth('desk', Date.now());
    // Held back: waiting in the outbox, not ready to send.
    await waitFor('the Slack message held back', async () => (await deskDepth()).waiting === 1);
    expect(await deskDepth()).toEqual({ waiting: 1, ready: 0, inflight: 0, parked: 0 });
    const [heldId, readyAt] = await running.redis.zrange(deskBox.pending, 0, -1, 'WITHSCORES');
    if (!heldId || !readyAt) throw new Error('no held outbox item');
    // Due when quiet hours end: the same instant within seconds, against a period of hours.
    const endsAt = nextUtc(end, now);
    expect(Math.abs(Number(readyAt) - endsAt)).toBeLessThan(5_000);
    expect(stack.slack.posts).toHaveLength(0);

    const route = await runShortwatch([
      'route',
      '--issuer',
      issuerId,
      '--holder',
      'Night Owl Capital LLP',
      '--kind',
      'opened',
      '--value',
      '0.7',
      '-c',
      stack.configPath,
    ]);
    expect(route.code).toBe(0);
    expect(verdicts(route.stdout)).toEqual({ desk: 'defer', alerts: 'send' });
    expect(route.stdout).toContain(`quiet hours, sent at ${new Date(endsAt).toISOString()}`);

    // When quiet hours end the held message goes out, once: the test moves its ready time to now.
    expect(await running.redis.zadd(deskBox.pending, 'XX', 'CH', Date.now(), heldId)).toBe(1);
    await waitFor('the held message sent', () => stack.slack.delivered().length === 1);
    expect(slackText(stack.slack.delivered()[0]?.payload)).toContain('Night Owl Capital LLP');
    await waitFor(
      'the outbox empty',
      async () =>
        JSON.stringify(await deskDepth()) ===
        JSON.stringify({ waiting: 0, ready: 0, inflight: 0, parked: 0 }),
    );
    expect(stack.slack.posts).toHaveLength(1);
  }, 60_000);

  it('keeps a muted holder from immediate channels while the digest still gets it', async () => {
    stack = await startStack({ issuers: 4, seed: 3, channels: ['slack', 'email', 'digest'] });
    patchChannel(stack, 'morning', { schedule: '*/2 * * * * *' });
    addChannel(stack, {
      name: 'night',
      kind: 'slack',
      webhookUrl: `${stack.slack.url}/night`,
      quietHours: { start: '00:00', end: '00:00', timezone: 'UTC' },
    });
    app = await stack.openApp();
    const running = app;
    await running.startDaemon({ workerOnly: false });
    const issuers = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    await waitFor(
      'baseline snapshots',
      async () => (await running.ctx.snapshots.getMany(issuers)).size === issuers.length,
    );

    const muted = await runShortwatch([
      'mute',
      'holder',
      'Hushed Holdings LLP',
      '--for',
      '1h',
      '-c',
      stack.configPath,
    ]);
    expect(muted.code).toBe(0);
    expect(muted.stdout).toContain('digests still receive it');

    // Another spelling of the muted holder is the same holder.
    stack.sandbox.scenario.disclose(issuers[0] ?? '', 'HUSHED HOLDINGS, LLP', 0.9);
    stack.sandbox.scenario.disclose(issuers[1] ?? '', 'Loud Capital LLP', 0.8);
    const digests = () => stack.smtp.mails.filter(isDigest);
    const alerts = () => stack.smtp.mails.filter((m) => !isDigest(m));
    await waitFor('the unmuted holder on Slack', () => stack.slack.delivered().length === 1);
    await waitFor('the unmuted holder by email', () => alerts().length === 1);
    await waitFor('the digest with both', () =>
      digests().some(
        (m) => mailText(m).includes('HUSHED HOLDINGS, LLP') && mailText(m).includes('Loud Capital LLP'),
      ),
    );
    // One more digest period closes, for anything late to show.
    const closedAt = () => running.redis.hget(stack.keys.outbox('morning').digestMeta, 'lastDigestAt');
    const before = await closedAt();
    await waitFor('another digest period', async () => (await closedAt()) !== before);

    const slack = stack.slack.delivered();
    expect(slack).toHaveLength(1);
    expect(slackText(slack[0]?.payload)).toContain('Loud Capital LLP');
    expect(slack.some((p) => /hushed/i.test(slackText(p.payload)))).toBe(false);
    expect(alerts()).toHaveLength(1);
    expect(alerts().map(mailText).join('\n')).toContain('Loud Capital LLP');
    expect(alerts().some((m) => /hushed/i.test(mailText(m)))).toBe(false);
    expect(digests()).toHaveLength(1);
    // The quiet channel holds the unmuted holder only.
    expect(await running.ctx.outbox.depth('night', Date.now())).toEqual({
      waiting: 1,
      ready: 0,
      inflight: 0,
      parked: 0,
    });

    const listed = await runShortwatch(['mutes', '-c', stack.configPath]);
    expect(listed.stdout).toMatch(/holder\s+Hushed Holdings LLP\s+\*/);
    expect(listed.stdout).toMatch(/alerts: 1/);
    expect(listed.stdout).toMatch(/desk: 1/);
    expect(listed.stdout).toMatch(/night: 1/);

    const route = (holder: string) =>
      runShortwatch([
        'route',
        '--issuer',
        issuers[0] ?? '',
        '--holder',
        holder,
        '--kind',
        'opened',
        '--value',
        '0.7',
        '-c',
        stack.configPath,
      ]);
    const [hushed, loud] = await Promise.all([route('Hushed Holdings LLP'), route('Someone Else LLP')]);
    expect(hushed.code).toBe(0);
    expect(verdicts(hushed.stdout)).toEqual({
      desk: 'muted',
      alerts: 'muted',
      morning: 'stage',
      night: 'muted',
    });
    expect(hushed.stdout).toContain('holder "Hushed Holdings LLP" muted on all channels');
    expect(verdicts(loud.stdout)).toEqual({ desk: 'send', alerts: 'send', morning: 'stage', night: 'defer' });
  }, 60_000);
});

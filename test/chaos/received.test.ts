import { afterEach, describe, expect, it } from 'vitest';
import { createEmailChannel } from '../../src/channels/email/index.js';
import { createSlackChannel } from '../../src/channels/slack/index.js';
import type { ChannelSender, Message } from '../../src/channels/types.js';
import { channelSchema } from '../../src/config/schema.js';
import { type SlackCapture, startSlackCapture } from '../../src/demo/slack-capture.js';
import { type SmtpCapture, startSmtpCapture } from '../../src/demo/smtp-capture.js';
import type { PositionEvent } from '../../src/positions/types.js';
import { changeTag, digestReceived, emailReceived, messageKey, slackReceived } from './received.js';

const issuer = { id: 'ISS-0007', name: 'Acme & <Sons> (Holdings) plc: 2' };
const now = () => new Date('2026-01-06T09:00:00Z');

function event(
  kind: PositionEvent['kind'],
  holder: string,
  from: number | null,
  to: number | null,
): PositionEvent {
  return {
    id: `${kind}-${holder}`,
    kind,
    issuer,
    holderKey: holder.toLowerCase().replace(/[^a-z0-9]/g, ''),
    holder,
    previous: from === null ? null : { value: from, date: '2026-01-05' },
    current: to === null ? null : { value: to, date: '2026-01-06' },
    delta: (to ?? 0) - (from ?? 0),
    thresholdsCrossed: [],
    issuerTotal: { before: 2, after: 2.4 },
    detectedAt: '2026-01-06T09:00:00Z',
  };
}

// Awkward names on purpose: parentheses, colons and "to" inside names must not confuse the reader.
const events = [
  event('opened', 'Lansdowne Partners (UK) LLP', null, 0.6),
  event('increased', 'Path to Value: Fund (A)', 0.8, 0.7999999999999999 + 0.3),
  event('decreased', 'D. E. Shaw & Co., L.P.', 1.25, 1.1),
  event('closed', 'Odey <!channel> LLP', 0.55, null),
];
const expectedKey = messageKey(
  issuer.id,
  events.map((e) => changeTag(e.kind, e.previous?.value ?? null, e.current?.value ?? null)),
);

describe('chaos readers: what the real renderers send is read back as the oracle keys it', () => {
  let slack: SlackCapture | undefined;
  let smtp: SmtpCapture | undefined;
  let sender: ChannelSender | undefined;

  afterEach(async () => {
    await sender?.close();
    await Promise.all([slack?.close(), smtp?.close()]);
  });

  it('reads a Slack post as its issuer and change tags', async () => {
    slack = await startSlackCapture();
    const config = channelSchema.parse({ name: 'desk', kind: 'slack', webhookUrl: slack.url });
    if (config.kind !== 'slack') throw new Error('not a Slack config');
    sender = createSlackChannel(config, { now });
    await sender.send({ type: 'events', issuer, events });
    const read = slackReceived(slack.posts);
    expect(read.unreadable).toEqual([]);
    expect(read.units.map((u) => u.key)).toEqual([expectedKey]);
  });

  it('reads an email and a digest line by line', async () => {
    smtp = await startSmtpCapture();
    const config = channelSchema.parse({
      name: 'alerts',
      kind: 'email',
      host: '127.0.0.1',
      port: smtp.port,
      secure: false,
      from: 'shortwatch@example.test',
      to: ['trader@example.test'],
    });
    if (config.kind !== 'email') throw new Error('not an email config');
    sender = createEmailChannel(config, { now });
    const digest: Message = {
      type: 'digest',
      period: { from: '2026-01-05T09:00:00Z', to: '2026-01-06T09:00:00Z', timezone: 'Europe/London' },
      events,
    };
    await sender.send({ type: 'events', issuer, events });
    await sender.send(digest);
    const mails = smtp.mails;
    const alerts = emailReceived(mails.slice(0, 1), 'trader@example.test');
    expect(alerts.unreadable).toEqual([]);
    expect(alerts.units.map((u) => u.key)).toEqual([expectedKey]);
    const lines = digestReceived(mails.slice(1), 'trader@example.test');
    expect(lines.unreadable).toEqual([]);
    expect(lines.units.map((u) => u.key).sort()).toEqual(
      events
        .map(
          (e) => `${issuer.name}|${changeTag(e.kind, e.previous?.value ?? null, e.current?.value ?? null)}`,
        )
        .sort(),
    );
  });
});

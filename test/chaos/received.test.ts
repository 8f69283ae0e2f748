import { afterEach, describe, expect, it } from 'vitest';
import { createEmailChannel } from '../../src/channels/email/index.js';
import { createSlackChannel } from '../../src/channels/slack/index.js';
import type { ChannelSender, IssuerRef, Message } from '../../src/channels/types.js';
import { createWebhookChannel } from '../../src/channels/webhook/index.js';
import { channelSchema } from '../../src/config/schema.js';
import { type SlackCapture, startSlackCapture } from '../../src/demo/slack-capture.js';
import { type SmtpCapture, startSmtpCapture } from '../../src/demo/smtp-capture.js';
import type { PositionEvent } from '../../src/positions/types.js';
import { TEST_SIGNING_SECRET } from '../channels/webhook/fixtures.js';
import { unusedMemory } from '../helpers/channel-memory.js';
import {
  changeKey,
  changeTag,
  digestReceived,
  emailReceived,
  slackReceived,
  webhookReceived,
} from './received.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

const issuer = { id: 'ISS-0007', name: 'Acme & <Sons> (Holdings) plc: 2' };
const other = { id: 'ISS-0042', name: 'Path (to) * Bolt: AG' };
const now = () => new Date('2026-01-06T09:00:00Z');

function event(
  kind: PositionEvent['kind'],
  holder: string,
  from: number | null,
  to: number | null,
  of: IssuerRef = issuer,
): PositionEvent {
  return {
    id: `${of.id}-${kind}-${holder}`,
    kind,
    issuer: of,
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
const otherEvents = [
  event('opened', 'Marshall * Wace (UK)', null, 0.75, other),
  event('closed', 'Odey <!channel> LLP', 0.9, null, other),
];
const keysOf = (list: readonly PositionEvent[]) =>
  list.map((e) =>
    changeKey(e.issuer.id, changeTag(e.kind, e.previous?.value ?? null, e.current?.value ?? null)),
  );
const batch: Message = {
  type: 'batch',
  groups: [
    { issuer, events },
    { issuer: other, events: otherEvents },
  ],
};

describe('chaos readers: what the real renderers send is read back as the oracle keys it', () => {
  let slack: SlackCapture | undefined;
  let smtp: SmtpCapture | undefined;
  let receiver: WebhookReceiver | undefined;
  let sender: ChannelSender | undefined;

  afterEach(async () => {
    await sender?.close();
    await Promise.all([slack?.close(), smtp?.close(), receiver?.close()]);
    sender = slack = smtp = receiver = undefined;
  });

  async function slackSender(): Promise<ChannelSender> {
    slack = await startSlackCapture();
    const config = channelSchema.parse({ name: 'desk', kind: 'slack', webhookUrl: slack.url });
    if (config.kind !== 'slack') throw new Error('not a Slack config');
    return createSlackChannel(config, { now, memory: unusedMemory });
  }

  it('reads a Slack post of one issuer as its changes', async () => {
    sender = await slackSender();
    await sender.send({ type: 'events', issuer, events });
    const read = slackReceived(slack?.posts ?? []);
    expect(read.unreadable).toEqual([]);
    expect(read.units.map((u) => u.key)).toEqual(keysOf(events));
  });

  it('reads a Slack batch post as each issuer section’s changes, and knows a resend of it', async () => {
    sender = await slackSender();
    await sender.send(batch, { partsSent: 0, deliveryId: 'd-1' });
    await sender.send(batch, { partsSent: 0, deliveryId: 'd-1' });
    await sender.send({ type: 'events', issuer: other, events: otherEvents });
    const read = slackReceived(slack?.posts ?? []);
    expect(read.unreadable).toEqual([]);
    expect(read.messages).toBe(3);
    const [first, again, alone] = [0, 1, 2].map((i) => read.units.filter((u) => u.message === `slack#${i}`));
    expect(first?.map((u) => u.key)).toEqual([...keysOf(events), ...keysOf(otherEvents)]);
    expect(again?.map((u) => u.resendKey)).toEqual(first?.map((u) => u.resendKey));
    // The same changes in another message are not a resend of the batch.
    const batchKeys = new Set(first?.map((u) => u.resendKey));
    expect(alone?.some((u) => batchKeys.has(u.resendKey))).toBe(false);
  });

  it('reads e-mails by Message-ID: a resend keeps it, another delivery id does not', async () => {
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
    sender = createEmailChannel(config, { now, memory: unusedMemory });
    await sender.send({ type: 'events', issuer, events }, { partsSent: 0, deliveryId: 'd-1' });
    await sender.send({ type: 'events', issuer, events }, { partsSent: 0, deliveryId: 'd-1' });
    await sender.send({ type: 'events', issuer, events }, { partsSent: 0, deliveryId: 'd-2' });
    await sender.send({ type: 'events', issuer, events });
    const read = emailReceived(smtp.mails, 'trader@example.test');
    expect(read.units.map((u) => u.key)).toEqual([...keysOf(events), ...keysOf(events), ...keysOf(events)]);
    expect(read.units.map((u) => u.messageId)).toEqual([
      ...events.map(() => '<d-1@example.test>'),
      ...events.map(() => '<d-1@example.test>'),
      ...events.map(() => '<d-2@example.test>'),
    ]);
    const resendKeys = read.units.map((u) => u.resendKey);
    expect(resendKeys.slice(4, 8)).toEqual(resendKeys.slice(0, 4));
    expect(resendKeys.slice(8).some((k) => resendKeys.slice(0, 4).includes(k))).toBe(false);
    // Without a delivery id an e-mail cannot be told from a repeat: unreadable, so the run fails.
    expect(read.unreadable).toHaveLength(1);
  });

  it('reads a digest line by line', async () => {
    smtp = await startSmtpCapture();
    const config = channelSchema.parse({
      name: 'morning',
      kind: 'email',
      host: '127.0.0.1',
      port: smtp.port,
      secure: false,
      from: 'shortwatch@example.test',
      to: ['digest@example.test'],
    });
    if (config.kind !== 'email') throw new Error('not an email config');
    sender = createEmailChannel(config, { now, memory: unusedMemory });
    const digest: Message = {
      type: 'digest',
      period: { from: '2026-01-05T09:00:00Z', to: '2026-01-06T09:00:00Z', timezone: 'Europe/London' },
      events,
    };
    await sender.send(digest, { partsSent: 0, deliveryId: 'dg-1' });
    const lines = digestReceived(smtp.mails, 'digest@example.test');
    expect(lines.unreadable).toEqual([]);
    expect(lines.units.map((u) => u.key).sort()).toEqual(
      events
        .map(
          (e) => `${issuer.name}|${changeTag(e.kind, e.previous?.value ?? null, e.current?.value ?? null)}`,
        )
        .sort(),
    );
    expect(new Set(lines.units.map((u) => u.messageId))).toEqual(new Set(['<dg-1@example.test>']));
  });

  it('reads webhook batch bodies by event, drops repeats by delivery id, and flags an event under two ids', async () => {
    receiver = await startWebhookReceiver();
    const config = channelSchema.parse({
      name: 'hook',
      kind: 'webhook',
      url: receiver.url,
      signingSecret: TEST_SIGNING_SECRET,
    });
    if (config.kind !== 'webhook') throw new Error('not a webhook config');
    sender = createWebhookChannel(config, { now, memory: unusedMemory });
    await sender.send(batch, { partsSent: 0, deliveryId: 'd-1' });
    await sender.send(batch, { partsSent: 0, deliveryId: 'd-1' });
    const clean = webhookReceived(receiver);
    expect(clean.unreadable).toEqual([]);
    expect(clean.inconsistent).toEqual([]);
    expect(clean.messages).toBe(1);
    expect(clean.units.map((u) => u.eventId)).toEqual([...events, ...otherEvents].map((e) => e.id));
    await sender.send(
      { type: 'events', issuer: other, events: otherEvents },
      { partsSent: 0, deliveryId: 'd-2' },
    );
    const twice = webhookReceived(receiver);
    expect(twice.inconsistent).toHaveLength(otherEvents.length);
  });
});

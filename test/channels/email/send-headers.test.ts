import type { ParsedMail } from 'mailparser';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmailChannel } from '../../../src/channels/email/send.js';
import type { ChannelSender, Message } from '../../../src/channels/types.js';
import { type SmtpCapture, startSmtpCapture } from '../../../src/demo/smtp-capture.js';
import { unusedMemory } from '../../helpers/channel-memory.js';
import { ACME, makeEvent } from './fixtures.js';
import { emailConfig } from './smtp-stub.js';

// What reaches a mail server, read back with mailparser: the headers that keep alerts out of spam and
// thread one issuer's alerts of one UTC day.
const NOW = new Date('2026-11-23T08:46:00.000Z');
const BETA = { id: 'ISS-2', name: 'Beta Group' };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function capture(): Promise<SmtpCapture> {
  const smtp = await startSmtpCapture();
  cleanups.push(() => smtp.close());
  return smtp;
}

function sender(smtp: SmtpCapture, name = 'alice'): ChannelSender {
  const config = emailConfig({
    name,
    host: smtp.host,
    port: smtp.port,
    secure: false,
    from: 'Shortwatch <alerts@desk.example>',
  });
  const channel = createEmailChannel(config, { now: () => NOW, memory: unusedMemory });
  cleanups.push(() => channel.close());
  return channel;
}

function alert(id: string, detectedAt: string, issuer = ACME): Message {
  return { type: 'events', issuer, events: [makeEvent({ id, issuer, detectedAt })] };
}

const send = (channel: ChannelSender, message: Message, deliveryId: string) =>
  channel.send(message, { partsSent: 0, deliveryId });

/** The raw value of one header line, as the server received it (unfolded). */
function rawHeader(mail: ParsedMail, name: string): string | undefined {
  const line = mail.headerLines.find((h) => h.key === name)?.line;
  return line
    ?.slice(line.indexOf(':') + 1)
    .replace(/\r?\n\s+/g, ' ')
    .trim();
}

/** The ids in References, however mailparser returns them. */
function references(mail: ParsedMail): string[] {
  const refs = mail.references;
  return refs === undefined ? [] : Array.isArray(refs) ? refs : [refs];
}

describe('email headers, through a real SMTP server', () => {
  it('Message-ID, Date, Auto-Submitted, List-Id; a resend keeps its Message-ID; one thread per issuer per day', async () => {
    const smtp = await capture();
    const channel = sender(smtp);
    await send(channel, alert('e1', '2026-11-23T08:45:00.000Z'), 'dlv-first');
    await send(channel, alert('e1', '2026-11-23T08:45:00.000Z'), 'dlv-first'); // a resend after a crash
    await send(channel, alert('e2', '2026-11-23T15:10:00.000Z'), 'dlv-second');
    await send(channel, alert('e3', '2026-11-24T07:00:00.000Z'), 'dlv-next-day');
    await send(channel, alert('e4', '2026-11-23T09:00:00.000Z', BETA), 'dlv-beta');
    const [first, resend, second, nextDay, beta] = smtp.mails.map((m) => m.parsed);
    if (!first || !resend || !second || !nextDay || !beta) throw new Error('expected five mails');

    expect([first, resend, second, nextDay, beta].map((m) => m.messageId)).toEqual([
      '<dlv-first@desk.example>',
      '<dlv-first@desk.example>',
      '<dlv-second@desk.example>',
      '<dlv-next-day@desk.example>',
      '<dlv-beta@desk.example>',
    ]);
    for (const mail of [first, second, beta]) {
      expect(mail.date?.toISOString()).toBe(NOW.toISOString());
      expect(rawHeader(mail, 'auto-submitted')).toBe('auto-generated');
      expect(rawHeader(mail, 'list-id')).toBe('"shortwatch: alice" <alice.shortwatch.desk.example>');
    }

    // Two alerts of Acme plc on 23 Nov: one root, in In-Reply-To and References: they thread on it.
    const root = first.inReplyTo;
    expect(root).toMatch(/^<thread\.2026-11-23\.[0-9a-f]{32}@desk\.example>$/);
    expect(references(first)).toEqual([root]);
    expect(second.inReplyTo).toBe(root);
    expect(references(second)).toEqual([root]);
    expect(resend.inReplyTo).toBe(root);
    // The subject says what happened, and names the issuer.
    expect(first.subject).toBe('Marshall Wace raised Acme plc to 1.23% (+0.12 pp)');
    expect(beta.subject).toBe('Marshall Wace raised Beta Group to 1.23% (+0.12 pp)');
    // The next day and another issuer start threads of their own.
    expect(nextDay.inReplyTo).toMatch(/^<thread\.2026-11-24\./);
    expect(beta.inReplyTo).not.toBe(root);
    expect(first.text?.split('\n')[0]).toBe('Marshall Wace raised its short in Acme plc to 1.23% (+0.12 pp)');
  });

  it('another channel to the same inbox threads apart (its own List-Id and root)', async () => {
    const smtp = await capture();
    await send(sender(smtp, 'alice'), alert('e1', '2026-11-23T08:45:00.000Z'), 'dlv-a');
    await send(sender(smtp, 'desk-feed'), alert('e1', '2026-11-23T08:45:00.000Z'), 'dlv-b');
    const [a, b] = smtp.mails.map((m) => m.parsed);
    expect(rawHeader(b as ParsedMail, 'list-id')).toBe(
      '"shortwatch: desk-feed" <desk-feed.shortwatch.desk.example>',
    );
    expect(a?.inReplyTo).toBeDefined();
    expect(b?.inReplyTo).not.toBe(a?.inReplyTo);
  });

  it('a digest carries List-Id and its own Message-ID but no thread', async () => {
    const smtp = await capture();
    const digest: Message = {
      type: 'digest',
      period: { from: '2026-11-22T07:30:00.000Z', to: '2026-11-23T07:30:00.000Z', timezone: 'Europe/London' },
      events: [makeEvent()],
    };
    await send(sender(smtp), digest, 'batch-7');
    const [mail] = smtp.mails.map((m) => m.parsed);
    expect(mail?.messageId).toBe('<batch-7@desk.example>');
    expect(rawHeader(mail as ParsedMail, 'list-id')).toBe(
      '"shortwatch: alice" <alice.shortwatch.desk.example>',
    );
    expect(rawHeader(mail as ParsedMail, 'auto-submitted')).toBe('auto-generated');
    expect(mail?.inReplyTo).toBeUndefined();
    expect(mail?.references).toBeUndefined();
  });
});

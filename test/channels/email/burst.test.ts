import { simpleParser } from 'mailparser';
import { afterEach, describe, expect, it } from 'vitest';
import { burstCoalesce, poolRate } from '../../../src/channels/email/burst.js';
import { createEmailChannel } from '../../../src/channels/email/send.js';
import type { ChannelSender, IssuerEvents, Message } from '../../../src/channels/types.js';
import { unusedMemory } from '../../helpers/channel-memory.js';
import { ACME, makeEvent } from './fixtures.js';
import { emailConfig, type SmtpStub, smtpReply, startSmtpStub } from './smtp-stub.js';

// A burst's delivery carries several issuers; e-mail sends one message per issuer, side by side over
// the pool, against a real SMTP server.

const NOW = new Date('2024-11-20T07:32:00.000Z');
const issuers = ['Acme plc', 'Beta Group', 'Gamma Ltd'].map((name, i) => ({ id: `ISS-${i + 1}`, name }));
const groups: IssuerEvents[] = issuers.map((issuer) => ({
  issuer,
  events: [makeEvent({ id: `e-${issuer.id}`, issuer })],
}));
const batch: Message = { type: 'batch', groups };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** An SMTP server that holds each message until `together` are in DATA at once (or 1 s passed). */
async function gatheringStub(together: number, reject?: (subject: string) => Error | undefined) {
  let inData = 0;
  let most = 0;
  const waiting: (() => void)[] = [];
  const server: SmtpStub = await startSmtpStub({
    onData(stream, _session, callback) {
      inData++;
      most = Math.max(most, inData);
      if (inData >= together) for (const release of waiting.splice(0)) release();
      const held = new Promise<void>((resolve) => {
        waiting.push(resolve);
        setTimeout(resolve, 1_000).unref();
        if (inData >= together) resolve();
      });
      simpleParser(stream).then(async (mail) => {
        await held;
        inData--;
        const refusal = reject?.(mail.subject ?? '');
        if (!refusal) server.received.push(mail);
        callback(refusal);
      }, callback);
    },
  });
  cleanups.push(server.close);
  return { server, most: () => most };
}

function channel(port: number, fields: Record<string, unknown> = {}): ChannelSender {
  const sender = createEmailChannel(emailConfig({ host: '127.0.0.1', port, secure: false, ...fields }), {
    now: () => NOW,
    memory: unusedMemory,
  });
  cleanups.push(() => sender.close());
  return sender;
}

describe('e-mail in a burst', () => {
  it('sends a three-issuer delivery as three e-mails at once, each with its own subject and Message-ID', async () => {
    const { server, most } = await gatheringStub(3);
    await channel(server.port, { maxConnections: 3 }).send(batch, { partsSent: 0, deliveryId: 'd-burst' });
    expect(most()).toBe(3);
    const byId = new Map(server.received.map((mail) => [mail.messageId, mail.subject]));
    expect(byId).toEqual(
      new Map([
        ['<d-burst-1@example.com>', 'Marshall Wace raised Acme plc to 1.23% (+0.12 pp)'],
        ['<d-burst-2@example.com>', 'Marshall Wace raised Beta Group to 1.23% (+0.12 pp)'],
        ['<d-burst-3@example.com>', 'Marshall Wace raised Gamma Ltd to 1.23% (+0.12 pp)'],
      ]),
    );
  });

  it('one connection sends one at a time', async () => {
    const { server, most } = await gatheringStub(2);
    await channel(server.port, { maxConnections: 1 }).send(batch, { partsSent: 0, deliveryId: 'd-one' });
    expect(most()).toBe(1);
    expect(server.received).toHaveLength(3);
  });

  it('a refused part fails the delivery after recording the parts before it; the retry sends the rest', async () => {
    let refuse = true;
    const { server } = await gatheringStub(3, (subject) =>
      refuse && subject.includes('Beta') ? smtpReply(451, 'try again later') : undefined,
    );
    const sender = channel(server.port, { maxConnections: 3 });
    const recorded: number[] = [];
    const progress = {
      partsSent: 0,
      deliveryId: 'd-retry',
      onPartSent: async (n: number) => {
        recorded.push(n);
      },
    };
    await expect(sender.send(batch, progress)).rejects.toMatchObject({ outcome: 'retry' });
    expect(recorded).toEqual([1]);
    refuse = false;
    await sender.send(batch, { ...progress, partsSent: 1 });
    const ids = server.received.map((mail) => mail.messageId).sort();
    // Gamma went out on both attempts under one Message-ID: the mail system drops the repeat.
    expect(ids).toEqual([
      '<d-retry-1@example.com>',
      '<d-retry-2@example.com>',
      '<d-retry-3@example.com>',
      '<d-retry-3@example.com>',
    ]);
  });

  it('a lone issuer keeps the delivery id as its Message-ID', async () => {
    const { server } = await gatheringStub(1);
    const lone: Message = { type: 'events', issuer: ACME, events: [makeEvent({})] };
    await channel(server.port).send(lone, { partsSent: 0, deliveryId: 'd-lone' });
    expect(server.received.map((mail) => mail.messageId)).toEqual(['<d-lone@example.com>']);
  });
});

describe('burst sizing and the pool rate', () => {
  it.each<[string, number, number, number]>([
    ['one connection: one issuer per delivery', 1, 25, 1],
    ["a second's worth at the rate", 5, 25, 25],
    ['never more than the rate allows in a second', 8, 2, 2],
    ['a rate under one a second: one e-mail per delivery', 5, 0.1, 1],
  ])('%s', (_, connections, rate, expected) => {
    const many = Array.from({ length: 110 }, () => groups[0]).filter((g) => g !== undefined);
    expect(burstCoalesce(connections, rate)(many)).toBe(expected);
    expect(burstCoalesce(connections, rate)(many.slice(0, 1))).toBe(1);
  });

  it.each<[number, { rateLimit: number; rateDelta: number }]>([
    [25, { rateLimit: 25, rateDelta: 1000 }],
    [2.5, { rateLimit: 2, rateDelta: 800 }],
    [0.5, { rateLimit: 1, rateDelta: 2000 }],
  ])('%s e-mails a second', (rate, expected) => {
    expect(poolRate(rate)).toEqual(expected);
  });
});

import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { DeliveryError } from '../../../src/channels/delivery-error.js';
import { createEmailChannel, smtpServerLabel } from '../../../src/channels/email/send.js';
import type { ChannelSender, Message } from '../../../src/channels/types.js';
import { Secret } from '../../../src/config/secret.js';
import { unusedMemory } from '../../helpers/channel-memory.js';
import { ACME, makeEvent } from './fixtures.js';
import { closedPort, emailConfig, type SmtpStub, smtpReply, startSmtpStub } from './smtp-stub.js';

const NOW = new Date('2024-11-20T07:32:00.000Z');
const deps = { now: () => NOW, memory: unusedMemory };
const PASSWORD = 'hunter2-very-secret';
const message: Message = {
  type: 'events',
  issuer: ACME,
  events: [makeEvent({ holder: '<script>alert(1)</script>' })],
};

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function stub(options: Parameters<typeof startSmtpStub>[0] = {}): Promise<SmtpStub> {
  const server = await startSmtpStub(options);
  cleanups.push(server.close);
  return server;
}

function channel(fields: Record<string, unknown>): ChannelSender {
  const sender = createEmailChannel(emailConfig(fields), deps);
  cleanups.push(() => sender.close());
  return sender;
}

async function sendError(sender: ChannelSender): Promise<DeliveryError> {
  const error = await sender.send(message).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof DeliveryError)) throw new Error(`expected a DeliveryError, got ${String(error)}`);
  return error;
}

describe('email channel: delivery', () => {
  it('sends one multipart/alternative message with subject, from, to, text and html', async () => {
    const server = await stub();
    await channel({ host: '127.0.0.1', port: server.port, secure: false }).send(message);

    expect(server.received).toHaveLength(1);
    const [mail] = server.received;
    expect(mail?.subject).toBe('<script>alert(1)</script> raised Acme plc to 1.23% (+0.12 pp)');
    expect(mail?.from?.text).toBe('shortwatch@example.com');
    const to = Array.isArray(mail?.to) ? mail?.to.map((a) => a.text) : [mail?.to?.text];
    expect(to).toEqual(['alice@example.com, desk@example.com']);
    expect(mail?.text).toContain('* <script>alert(1)</script> raised 1.11% → 1.23% (+0.12 pp) on 2024-11-20');
    expect(mail?.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail?.html).not.toContain('<script>');
    const contentType = mail?.headerLines.find((h) => h.key === 'content-type')?.line ?? '';
    expect(contentType).toMatch(/^Content-Type: multipart\/alternative/i);
    expect(mail?.headers.get('x-shortwatch-message')).toBe('events');
    expect(mail?.date?.toISOString()).toBe(NOW.toISOString());
  });

  it('sends over an smtp:// URL with credentials', async () => {
    const logins: string[] = [];
    const server = await stub({
      authMethods: ['PLAIN', 'LOGIN'],
      allowInsecureAuth: true,
      onAuth(auth, _session, callback) {
        logins.push(`${auth.username}:${auth.password}`);
        callback(null, { user: auth.username });
      },
    });
    await channel({ smtpUrl: `smtp://alice:${PASSWORD}@127.0.0.1:${server.port}` }).send({
      type: 'test',
      channel: 'alice',
      sentAt: NOW.toISOString(),
    });
    expect(logins).toEqual([`alice:${PASSWORD}`]);
    expect(server.received[0]?.subject).toBe('shortwatch test message — not a real alert');
    expect(server.received[0]?.headers.get('x-shortwatch-message')).toBe('test');
  });
});

describe('email channel: idempotency', () => {
  const progress = (deliveryId: string) => ({ partsSent: 0, deliveryId });

  it('a resend with the same delivery id carries the same Message-ID; another id another', async () => {
    const server = await stub();
    const sender = channel({ host: '127.0.0.1', port: server.port, secure: false });
    await sender.send(message, progress('dlv-3f2a9c'));
    await sender.send(message, progress('dlv-3f2a9c'));
    await sender.send(message, progress('dlv-77e0b1'));
    expect(server.received.map((mail) => mail.messageId)).toEqual([
      '<dlv-3f2a9c@example.com>',
      '<dlv-3f2a9c@example.com>',
      '<dlv-77e0b1@example.com>',
    ]);
    expect(server.received.map((mail) => mail.headers.get('x-shortwatch-delivery'))).toEqual([
      'dlv-3f2a9c',
      'dlv-3f2a9c',
      'dlv-77e0b1',
    ]);
    for (const mail of server.received) expect(mail.headers.get('auto-submitted')).toBe('auto-generated');
  });

  it('takes the domain from a from address with a display name', async () => {
    const server = await stub();
    const sender = channel({
      host: '127.0.0.1',
      port: server.port,
      secure: false,
      from: 'Shortwatch Alerts <alerts@desk.example.org>',
    });
    await sender.send(message, progress('dlv-1'));
    expect(server.received[0]?.messageId).toBe('<dlv-1@desk.example.org>');
  });

  it('without a delivery (test-notify) it is still marked auto-generated, with a Message-ID of its own', async () => {
    const server = await stub();
    await channel({ host: '127.0.0.1', port: server.port, secure: false }).send(message);
    const [mail] = server.received;
    expect(mail?.headers.get('auto-submitted')).toBe('auto-generated');
    expect(mail?.headers.has('x-shortwatch-delivery')).toBe(false);
    expect(mail?.messageId).toMatch(/^<.+@.+>$/);
  });
});

describe('email channel: hostile names', () => {
  it('a 5,000-character holder with a lone surrogate goes out with a clipped headline', async () => {
    const server = await stub();
    const holder = `Fund \uD800 ${'X'.repeat(5000)}`;
    const hostile: Message = { type: 'events', issuer: ACME, events: [makeEvent({ holder })] };
    await channel({ host: '127.0.0.1', port: server.port, secure: false }).send(hostile, {
      partsSent: 0,
      deliveryId: 'dlv-h',
    });
    const [mail] = server.received;
    expect(mail?.subject).toBe(`Fund \uFFFD ${'X'.repeat(112)}… raised Acme plc to 1.23% (+0.12 pp)`);
    expect(mail?.text?.split('\n')[0]).toBe(
      `Fund \uFFFD ${'X'.repeat(112)}… raised its short in Acme plc to 1.23% (+0.12 pp)`,
    );
    expect(mail?.text).toContain(`* Fund \uFFFD ${'X'.repeat(5000)} raised 1.11% → 1.23%`);
  });
});

describe('email channel: coalesce', () => {
  it.each([
    { name: 'no issuers', count: 0, expected: 0 },
    { name: 'one issuer', count: 1, expected: 1 },
    {
      name: "many issuers: a second's worth at the default rate (each its own e-mail)",
      count: 30,
      expected: 25,
    },
  ])('$name → $expected', ({ count, expected }) => {
    const groups = Array.from({ length: count }, (_, i) => ({
      issuer: { id: `ISS-${i}`, name: `Issuer ${i}` },
      events: [makeEvent()],
    }));
    expect(channel({ host: '127.0.0.1', port: 25 }).coalesce(groups)).toBe(expected);
  });
});

describe('email channel: failures', () => {
  it.each([
    {
      name: '451 at DATA is retried',
      options: {
        onData(stream: NodeJS.ReadableStream, _s: unknown, callback: (e?: Error | null) => void) {
          stream.on('end', () => callback(smtpReply(451, 'Try again later')));
          stream.resume();
        },
      },
      outcome: 'retry',
      status: 451,
    },
    {
      name: '550 at DATA is parked',
      options: {
        onData(stream: NodeJS.ReadableStream, _s: unknown, callback: (e?: Error | null) => void) {
          stream.on('end', () => callback(smtpReply(550, 'Message rejected as spam')));
          stream.resume();
        },
      },
      outcome: 'park',
      status: 550,
    },
    {
      name: '550 for every recipient is parked',
      options: {
        onRcptTo(_a: unknown, _s: unknown, callback: (e?: Error | null) => void) {
          callback(smtpReply(550, 'No such user'));
        },
      },
      outcome: 'park',
      status: 550,
    },
    {
      name: '452 for every recipient is retried',
      options: {
        onRcptTo(_a: unknown, _s: unknown, callback: (e?: Error | null) => void) {
          callback(smtpReply(452, 'Mailbox full, try later'));
        },
      },
      outcome: 'retry',
      status: 452,
    },
  ] as const)('$name', async ({ options, outcome, status }) => {
    const server = await stub(options);
    const error = await sendError(channel({ host: '127.0.0.1', port: server.port, secure: false }));
    expect(error.outcome).toBe(outcome);
    expect(error.status).toBe(status);
    expect(error.message).toMatch(
      new RegExp(`^SMTP 127\\.0\\.0\\.1:${server.port}: send failed: server replied to [A-Z ]+: ${status} `),
    );
    expect(server.received).toHaveLength(0);
  });

  it('connection refused is retried', async () => {
    const port = await closedPort();
    const error = await sendError(channel({ host: '127.0.0.1', port, secure: false }));
    expect(error.outcome).toBe('retry');
    expect(error.status).toBeUndefined();
    expect(error.message).toBe(`SMTP 127.0.0.1:${port}: send failed: ESOCKET (ECONNREFUSED)`);
  });

  describe('wrong password', () => {
    const rejectingAuth = {
      authMethods: ['PLAIN', 'LOGIN'],
      allowInsecureAuth: true,
      authOptional: false,
      onAuth(_auth: unknown, _session: unknown, callback: (e: Error | null | undefined) => void) {
        callback(new Error('Invalid username or password'));
      },
    };

    it.each([
      {
        name: 'host and auth',
        fields: (port: number) => ({ host: '127.0.0.1', port, auth: { user: 'alice', pass: PASSWORD } }),
      },
      {
        name: 'smtpUrl',
        fields: (port: number) => ({ smtpUrl: `smtp://alice:${PASSWORD}@127.0.0.1:${port}` }),
      },
    ])('is parked, and the password appears nowhere in the error ($name)', async ({ fields }) => {
      const server = await stub(rejectingAuth);
      const error = await sendError(channel({ secure: false, ...fields(server.port) }));
      expect(error.outcome).toBe('park');
      expect(error.code).toBe('EAUTH');
      expect(error.message).toContain(`SMTP 127.0.0.1:${server.port}: send failed`);
      for (const shown of [
        error.message,
        error.stack ?? '',
        inspect(error, { depth: 5 }),
        JSON.stringify(error),
      ]) {
        expect(shown).not.toContain(PASSWORD);
        expect(shown).not.toContain('smtp://');
      }
      expect(server.received).toHaveLength(0);
    });

    it('verify() fails the same way', async () => {
      const server = await stub(rejectingAuth);
      const sender = channel({
        host: '127.0.0.1',
        port: server.port,
        secure: false,
        auth: { user: 'a', pass: PASSWORD },
      });
      const error = await sender.verify().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(DeliveryError);
      expect(error instanceof DeliveryError && error.outcome).toBe('park');
      expect(String(error)).not.toContain(PASSWORD);
    });
  });
});

describe('email channel: verify', () => {
  it('connects without sending anything and names the server, never the credentials', async () => {
    const server = await stub({
      authMethods: ['PLAIN'],
      allowInsecureAuth: true,
      onAuth(auth, _session, callback) {
        callback(null, { user: auth.username });
      },
    });
    const sender = channel({ smtpUrl: `smtp://alice:${PASSWORD}@127.0.0.1:${server.port}` });
    await expect(sender.verify()).resolves.toBe(`SMTP 127.0.0.1:${server.port} ok`);
    expect(server.received).toHaveLength(0);
  });

  it('against a server that accepts anyone', async () => {
    const server = await stub();
    const sender = channel({ host: '127.0.0.1', port: server.port, secure: false });
    await expect(sender.verify()).resolves.toBe(`SMTP 127.0.0.1:${server.port} ok`);
  });
});

describe('smtpServerLabel', () => {
  it.each([
    {
      name: 'smtps URL, default port',
      fields: { smtpUrl: new Secret('smtps://u:p4ss@mail.example.com') },
      label: 'mail.example.com:465',
    },
    {
      name: 'smtp URL, own port',
      fields: { smtpUrl: new Secret('smtp://u:p4ss@mail.example.com:2525') },
      label: 'mail.example.com:2525',
    },
    {
      name: 'smtp URL, default port',
      fields: { smtpUrl: new Secret('smtp://mail.example.com') },
      label: 'mail.example.com:587',
    },
    { name: 'unparsable URL', fields: { smtpUrl: new Secret('p4ss@@::') }, label: '(smtpUrl)' },
    { name: 'host and port', fields: { host: 'mx.example.com', port: 25 }, label: 'mx.example.com:25' },
    {
      name: 'host, implicit TLS',
      fields: { host: 'mx.example.com', secure: true },
      label: 'mx.example.com:465',
    },
  ])('$name → $label', ({ fields, label }) => {
    expect(smtpServerLabel(fields)).toBe(label);
  });
});

import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { connect, createServer as createTcpServer, type Socket, type Server as TcpServer } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHostUnreachableError, type ReachStep } from '../../src/channels/reach-host.js';
import { createSender } from '../../src/channels/registry.js';
import { channelSchema } from '../../src/config/schema.js';
import { verifyChannel } from '../../src/preflight/channel-reach.js';
import {
  closedPort,
  emailConfig,
  type SmtpStub,
  smtpReply,
  startSmtpStub,
} from '../channels/email/smtp-stub.js';
import { unusedMemory } from '../helpers/channel-memory.js';

// Issue 31: `check` proves each channel reachable without sending, and says which part failed. Each case
// is a real local stand-in: a port nothing listens on, a TLS server with an expired certificate, a port
// that accepts and never speaks, an SMTP server that refuses the password.

const fixture = (name: string) => readFileSync(new URL(`../fixtures/tls/${name}`, import.meta.url));

/** Short bounds: the silent port is given 300 ms a step, so the case takes about that. */
const LIMITS = { stepMs: 300, verifyMs: 2_000 };

const deps = { now: () => new Date('2026-11-28T12:00:00Z'), memory: unusedMemory };

/** A webhook's signing secret in the Standard Webhooks form its schema asks for. */
const SIGNING_SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

function channel(fields: Record<string, unknown>) {
  const signing = fields.kind === 'webhook' ? { signingSecret: SIGNING_SECRET } : {};
  return channelSchema.parse({ name: 'desk', ...signing, ...fields });
}

/**
 * A port whose SYNs go unanswered: a child process listens with a backlog of 1 (0 is Node's default, 511)
 * and then blocks its event loop, so it never accepts; two connections fill the kernel's queue, and the
 * next connect hangs.
 */
async function blackHole(): Promise<{ port: number; child: ChildProcess; fillers: Socket[] }> {
  const script = [
    "const s = require('node:net').createServer();",
    "s.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {",
    "  require('node:fs').writeSync(1, String(s.address().port) + '\\n');",
    '  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60000);',
    '});',
  ].join('\n');
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) =>
    child.stdout?.once('data', (d) => resolve(Number(String(d).trim()))),
  );
  const fillers: Socket[] = [];
  for (const _ of [1, 2]) {
    fillers.push(
      await new Promise<Socket>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => resolve(socket));
      }),
    );
  }
  return { port, child, fillers };
}

async function listening<T extends Server | TcpServer>(server: T): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP port');
  return address.port;
}

describe('verifyChannel: a channel proven reachable without sending, or the step that failed', () => {
  const expired = createTlsServer({
    key: fixture('expired-localhost.key'),
    cert: fixture('expired-localhost.pem'),
  });
  const silent = createTcpServer(() => {});
  const http = createHttpServer((_, response) => response.end('never asked'));
  let requests = 0;
  let ports: { expired: number; silent: number; http: number; closed: number; hole: number };
  let smtp: SmtpStub;
  let hole: Awaited<ReturnType<typeof blackHole>>;

  beforeAll(async () => {
    http.on('request', () => {
      requests += 1;
    });
    hole = await blackHole();
    ports = {
      hole: hole.port,
      expired: await listening(expired),
      silent: await listening(silent),
      http: await listening(http),
      closed: await closedPort(),
    };
    smtp = await startSmtpStub({
      authOptional: false,
      onAuth: (_auth, _session, callback) => callback(smtpReply(535, '5.7.8 authentication failed')),
    });
  });

  afterAll(async () => {
    for (const server of [expired, silent, http]) {
      server.close();
      if ('closeAllConnections' in server) server.closeAllConnections();
    }
    await smtp.close();
    for (const socket of hole.fillers) socket.destroy();
    hole.child.kill();
  });

  const cases: {
    name: string;
    fields: () => Record<string, unknown>;
    step: ReachStep;
    message: () => string;
  }[] = [
    {
      name: 'a Slack host that does not resolve',
      fields: () => ({ kind: 'slack', webhookUrl: 'https://hooks.example.test/services/T0/B0/secret-token' }),
      step: 'dns',
      message: () => 'hooks.example.test does not resolve (ENOTFOUND)',
    },
    {
      name: 'a webhook port nothing listens on',
      fields: () => ({ kind: 'webhook', url: `http://127.0.0.1:${ports.closed}/hook` }),
      step: 'tcp',
      message: () => `TCP connect to 127.0.0.1:${ports.closed} refused: nothing listens there (ECONNREFUSED)`,
    },
    {
      name: 'a webhook host that never answers the TCP handshake',
      fields: () => ({ kind: 'webhook', url: `http://127.0.0.1:${ports.hole}/hook` }),
      step: 'tcp',
      message: () => `TCP connect to 127.0.0.1:${ports.hole} timed out after 0.3s`,
    },
    {
      name: 'a webhook host whose certificate has expired',
      fields: () => ({ kind: 'webhook', url: `https://localhost:${ports.expired}/hook` }),
      step: 'tls',
      message: () => `TLS with localhost:${ports.expired}: certificate has expired (CERT_HAS_EXPIRED)`,
    },
    {
      name: 'a webhook port that accepts and never completes the TLS handshake',
      fields: () => ({ kind: 'webhook', url: `https://127.0.0.1:${ports.silent}/hook` }),
      step: 'tls',
      message: () => `TLS handshake with 127.0.0.1:${ports.silent} timed out after 0.3s (is it a TLS port?)`,
    },
  ];

  it.each(cases)('$name: the $step step fails, saying why', async ({ fields, step, message }) => {
    const config = channel(fields());
    const sender = createSender(config, deps);
    const failure = await verifyChannel(config, sender, LIMITS).then(
      () => undefined,
      (error: unknown) => error,
    );
    if (!isHostUnreachableError(failure))
      throw new Error(`expected a HostUnreachableError, got ${String(failure)}`);
    expect(failure.step).toBe(step);
    expect(failure.message).toBe(message());
    // The secret path of the URL is never part of what is said.
    expect(failure.message).not.toMatch(/secret-token|hook$/);
    await sender.close();
  });

  it('a reachable webhook host is proven without a request', async () => {
    const config = channel({ kind: 'webhook', url: `http://127.0.0.1:${ports.http}/hook` });
    const sender = createSender(config, deps);
    const said = await verifyChannel(config, sender, LIMITS);
    expect(said).toMatch(new RegExp(`; 127\\.0\\.0\\.1:${ports.http} reached$`));
    expect(requests).toBe(0);
  });

  it('an SMTP server whose STARTTLS certificate has expired: the TLS step fails before any AUTH', async () => {
    const tls = await startSmtpStub({
      disabledCommands: [],
      key: fixture('expired-localhost.key'),
      cert: fixture('expired-localhost.pem'),
    });
    try {
      const config = emailConfig({ host: 'localhost', port: tls.port });
      const sender = createSender(config, deps);
      const failure = await verifyChannel(config, sender, LIMITS).then(
        () => undefined,
        (error: unknown) => error,
      );
      if (!isHostUnreachableError(failure))
        throw new Error(`expected a HostUnreachableError, got ${String(failure)}`);
      expect(failure.step).toBe('tls');
      expect(failure.message).toBe(
        `TLS with localhost:${tls.port}: certificate has expired (CERT_HAS_EXPIRED)`,
      );
      await sender.close();
    } finally {
      await tls.close();
    }
  });

  it('an SMTP server that refuses the password: the host is reached, AUTH fails with its 535', async () => {
    const config = emailConfig({
      host: '127.0.0.1',
      port: smtp.port,
      auth: { user: 'shortwatch', pass: 'wrong-password' },
    });
    const sender = createSender(config, deps);
    const failure = await verifyChannel(config, sender, LIMITS).then(
      () => 'verified',
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    expect(failure).toMatch(
      /^SMTP 127\.0\.0\.1:\d+: verify failed: server replied to AUTH PLAIN: 535 5\.7\.8 authentication failed$/,
    );
    expect(failure).not.toContain('wrong-password');
    await sender.close();
  });
});

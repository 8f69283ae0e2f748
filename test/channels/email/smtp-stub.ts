import { createServer } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { channelSchema } from '../../../src/config/schema.js';

/** A real SMTP server on 127.0.0.1 and a free port, keeping every message it accepts. */
export interface SmtpStub {
  port: number;
  received: ParsedMail[];
  close(): Promise<void>;
}

/** An SMTP error reply, as smtp-server sends it: the code travels on the error. */
export function smtpReply(responseCode: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode });
}

/** Starts a plain-text SMTP server; `options` override the accept-everything defaults. */
export async function startSmtpStub(options: SMTPServerOptions = {}): Promise<SmtpStub> {
  const received: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          received.push(mail);
          callback();
        },
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    },
    ...options,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  if (address === null || typeof address === 'string') throw new Error('SMTP stub has no TCP port');
  return {
    port: address.port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port on 127.0.0.1 with nothing listening: connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('probe has no TCP port');
  return address.port;
}

/** A validated email channel config, defaults applied by the real schema. */
export function emailConfig(fields: Record<string, unknown>) {
  const config = channelSchema.parse({
    kind: 'email',
    name: 'alice',
    from: 'shortwatch@example.com',
    to: ['alice@example.com', 'desk@example.com'],
    ...fields,
  });
  if (config.kind !== 'email') throw new Error('not an email channel');
  return config;
}

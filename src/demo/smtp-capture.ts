import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One message the local SMTP server accepted. */
export interface CapturedMail {
  raw: Buffer;
  parsed: ParsedMail;
  receivedAt: Date;
}

/** A scripted SMTP answer to the DATA of one message, used once. */
export interface ScriptedSmtpReply {
  responseCode: number;
  message: string;
}

/** A local SMTP server that keeps what it accepts, for the demo and the tests. */
export interface SmtpCapture {
  host: string;
  port: number;
  mails: CapturedMail[];
  script(...replies: ScriptedSmtpReply[]): void;
  close(): Promise<void>;
}

/** Starts an SMTP server on 127.0.0.1 (no TLS, any or no auth); `onMail` sees each accepted message. */
export async function startSmtpCapture(
  options: { port?: number; onMail?: (mail: CapturedMail) => void } = {},
): Promise<SmtpCapture> {
  const mails: CapturedMail[] = [];
  const scripted: ScriptedSmtpReply[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(_auth, _session, callback) {
      callback(null, { user: 'demo' });
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const reply = scripted.shift();
        if (reply) {
          const error = Object.assign(new Error(reply.message), { responseCode: reply.responseCode });
          callback(error);
          return;
        }
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then(
          (parsed) => {
            const mail = { raw, parsed, receivedAt: new Date() };
            mails.push(mail);
            options.onMail?.(mail);
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  // A client that resets its connection (ECONNRESET) is the client's problem; unheard, the 'error'
  // event would end the whole process.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    mails,
    script: (...replies) => scripted.push(...replies),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A local SMTP server that only counts: parsing 100,000 messages would weigh on the figure it serves. */
export interface CountingSmtp {
  host: string;
  port: number;
  /** Receive times (epoch ms) of messages to an address `isSubscriber` accepts, and of the others. */
  subscriberAt: number[];
  otherAt: number[];
  close(): Promise<void>;
}

/** Starts it on 127.0.0.1; a message counts as a subscriber's when every recipient passes `isSubscriber`. */
export async function startCountingSmtp(isSubscriber: (address: string) => boolean): Promise<CountingSmtp> {
  const subscriberAt: number[] = [];
  const otherAt: number[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // Every subscriber's deliverer may hold a connection of the shared pool at once.
    maxClients: 1_000,
    onData(stream, session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address);
        (to.every(isSubscriber) ? subscriberAt : otherAt).push(Date.now());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    subscriberAt,
    otherAt,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

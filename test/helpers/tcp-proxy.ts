import type { AddressInfo } from 'node:net';
import { connect, createServer, type Socket } from 'node:net';
import { tieEnds } from './socket-pair.js';

/** A TCP proxy whose connections can be cut at any moment, and which can refuse new ones for a while. */
export interface DroppingProxy {
  port: number;
  /** Destroys every open connection (both sides) and says how many there were. */
  drop(): number;
  /**
   * An outage of `ms`: drops every connection now and destroys each new one until it ends, as an
   * unreachable server would look to the client. Resolves when the outage is over.
   */
  outage(ms: number): Promise<void>;
  /** Connections open right now. */
  open(): number;
  close(): Promise<void>;
}

/**
 * Forwards 127.0.0.1:<port> to `target`; `drop()` simulates a network cut between shortwatch and the
 * server (SMTP, Redis), `outage(ms)` a server unreachable for a while.
 */
export async function startDroppingProxy(
  targetPort: number,
  targetHost = '127.0.0.1',
): Promise<DroppingProxy> {
  const pairs = new Set<[Socket, Socket]>();
  let refuseUntil = 0;
  const server = createServer((client) => {
    if (Date.now() < refuseUntil) {
      client.destroy();
      return;
    }
    const upstream = connect(targetPort, targetHost);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    tieEnds(pairs, pair, client, upstream);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const drop = () => {
    const count = pairs.size;
    for (const [client, upstream] of [...pairs]) {
      client.destroy();
      upstream.destroy();
    }
    pairs.clear();
    return count;
  };
  const outage = async (ms: number) => {
    refuseUntil = Date.now() + ms;
    drop();
    await new Promise((resolve) => setTimeout(resolve, ms));
  };
  return {
    port,
    drop,
    outage,
    open: () => pairs.size,
    close: () =>
      new Promise<void>((resolve) => {
        drop();
        server.close(() => resolve());
      }),
  };
}

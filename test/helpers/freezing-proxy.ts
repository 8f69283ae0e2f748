import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { tieEnds } from './socket-pair.js';

/** A TCP proxy to Redis that can stop forwarding the bytes of chosen connections, which stay open. */
export interface FreezingProxy {
  port: number;
  /**
   * Freezes every connection whose client named itself (`CLIENT SETNAME`) with a name containing
   * `fragment`: from now on nothing passes either way, and no error reaches either side, as a half-open
   * TCP connection looks. With `future`, connections opened later under such a name freeze too.
   * Returns how many open connections froze.
   */
  freeze(fragment: string, options?: { future?: boolean }): number;
  /**
   * Freezes the replication links through the proxy (a replica's connection, known by its `PSYNC`), now and
   * from now on: the master's writes stop reaching the replica and its acknowledgements the master, and
   * neither side sees an error. Returns how many open links froze.
   */
  freezeReplication(): number;
  /** Connections opened from now on are forwarded again, whatever froze before (open frozen ones stay frozen). */
  forgetFreezes(): void;
  /**
   * An outage of `ms`: destroys every connection now and each new one until it ends, as an unreachable
   * server looks to the client. Resolves when the outage is over.
   */
  outage(ms: number): Promise<void>;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream: Socket;
  /** The first bytes the client sent, where its `CLIENT SETNAME` is. */
  head: string;
  frozen: boolean;
}

/** How much of a connection's first bytes is kept to find its name. */
const HEAD_BYTES = 2_048;

/**
 * The name in a connection's `CLIENT SETNAME` (RESP: `$7 setname $<n> <name>`), or '' before it is sent.
 * Only the name is matched: the commands after it name keys (`{prefix}:deliveries`) that a fragment such
 * as `:deliver` would match too.
 */
function clientName(head: string): string {
  return /setname\r\n\$\d+\r\n([^\r]*)\r\n/i.exec(head)?.[1] ?? '';
}

/** Forwards 127.0.0.1:<port> to `targetHost:targetPort`, freezing connections on demand. */
export async function startFreezingProxy(
  targetPort: number,
  targetHost = '127.0.0.1',
): Promise<FreezingProxy> {
  const pairs = new Set<Pair>();
  /** What freezes a connection opened later, tested on its first bytes. */
  const freezesLater: Array<(head: string) => boolean> = [];
  let refuseUntil = 0;
  const server = createServer((client) => {
    if (Date.now() < refuseUntil) {
      client.destroy();
      return;
    }
    const upstream = connect(targetPort, targetHost);
    const pair: Pair = { client, upstream, head: '', frozen: false };
    pairs.add(pair);
    tieEnds(pairs, pair, client, upstream);
    client.on('data', (chunk: Buffer) => {
      if (pair.head.length < HEAD_BYTES) {
        pair.head += chunk.toString('latin1');
        if (freezesLater.some((freezes) => freezes(pair.head))) pair.frozen = true;
      }
      if (!pair.frozen) upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!pair.frozen) client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const freezeWhere = (freezes: (head: string) => boolean, future: boolean) => {
    if (future) freezesLater.push(freezes);
    let count = 0;
    for (const pair of pairs) {
      if (pair.frozen || !freezes(pair.head)) continue;
      pair.frozen = true;
      count++;
    }
    return count;
  };
  return {
    port,
    freeze: (fragment, options = {}) =>
      freezeWhere((head) => clientName(head).includes(fragment), options.future ?? false),
    freezeReplication: () => freezeWhere((head) => /\bpsync\b/i.test(head), true),
    forgetFreezes: () => {
      freezesLater.length = 0;
    },
    async outage(ms) {
      refuseUntil = Date.now() + ms;
      for (const pair of pairs) {
        pair.client.destroy();
        pair.upstream.destroy();
      }
      pairs.clear();
      await new Promise((resolve) => setTimeout(resolve, ms));
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const pair of pairs) {
          pair.client.destroy();
          pair.upstream.destroy();
        }
        pairs.clear();
        server.close(() => resolve());
      }),
  };
}

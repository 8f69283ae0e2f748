import type { Socket } from 'node:net';

/** Ends both sides of a proxied connection when either errors or closes, and forgets the pair. */
export function tieEnds<P>(pairs: Set<P>, pair: P, client: Socket, upstream: Socket): void {
  const end = () => {
    pairs.delete(pair);
    client.destroy();
    upstream.destroy();
  };
  for (const socket of [client, upstream]) {
    socket.on('error', end);
    socket.on('close', end);
  }
}

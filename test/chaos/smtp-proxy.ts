import type { AddressInfo } from 'node:net';
import { connect, createServer, type Socket } from 'node:net';

/** A TCP proxy in front of the SMTP capture whose connections can be cut at any moment. */
export interface DroppingProxy {
  port: number;
  /** Destroys every open connection (both sides) and says how many there were. */
  drop(): number;
  /** Connections open right now. */
  open(): number;
  close(): Promise<void>;
}

/** Forwards 127.0.0.1:<port> to `target`; `drop()` simulates a network cut between shortwatch and SMTP. */
export async function startDroppingProxy(
  targetPort: number,
  targetHost = '127.0.0.1',
): Promise<DroppingProxy> {
  const pairs = new Set<[Socket, Socket]>();
  const server = createServer((client) => {
    const upstream = connect(targetPort, targetHost);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end);
    upstream.on('error', end);
    client.on('close', end);
    upstream.on('close', end);
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
  return {
    port,
    drop,
    open: () => pairs.size,
    close: () =>
      new Promise<void>((resolve) => {
        drop();
        server.close(() => resolve());
      }),
  };
}

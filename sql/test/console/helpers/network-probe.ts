import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP listener on 127.0.0.1 that counts connections: every network table function pointed at it
 * (url, mysql, postgresql, redis, remote, s3, mongodb …) would connect first. It answers HTTP
 * with 200 "ok" so that a url() control read through an unrestricted session succeeds.
 */
export interface NetworkProbe {
  port: number;
  readonly connections: number;
  close(): Promise<void>;
}

export async function startNetworkProbe(): Promise<NetworkProbe> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.once('data', () => {
      socket.end(
        'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 3\r\nConnection: close\r\n\r\nok\n',
      );
    });
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as { port: number }).port,
    get connections() {
      return connections;
    },
    async close() {
      for (const s of sockets) s.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

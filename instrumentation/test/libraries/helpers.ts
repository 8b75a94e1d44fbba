import { type ChildProcess, spawn } from 'node:child_process';
import { createConnection, createServer, type Server } from 'node:net';

/** A loopback port that was free a moment ago and now has no listener: connects get ECONNREFUSED. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A listener that accepts connections and never says a word: every handshake waits forever. */
export async function silentServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Names unique to this run, so concurrent suites never collide. */
export function uniqueName(kind: string): string {
  return `fl_lib_${kind}_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
}

/** Resolves with what `promise` rejected with; fails the test if it resolved instead. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/** Starts a private server binary on `port` and waits until it accepts TCP connections. */
export async function startServer(command: string, args: string[], port: number): Promise<ChildProcess> {
  const child = spawn(command, args, { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const s = createConnection(port, '127.0.0.1', () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (up) return child;
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill();
  throw new Error(`${command} did not listen on ${port}`);
}

/** Stops a child started by startServer and waits for it to exit. */
export async function stopServer(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill();
  await exited;
}

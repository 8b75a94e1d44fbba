import { createServer } from 'node:net';

/** A loopback port that was free a moment ago and now has no listener: connects get ECONNREFUSED. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Table and key names unique to this engineer and this run, so concurrent suites never collide. */
export function uniqueName(kind: string): string {
  return `fl_h2_${kind}_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
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

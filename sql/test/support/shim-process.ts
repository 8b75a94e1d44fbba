import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const SHIM = fileURLToPath(new URL('./clickhouse-http-shim.mjs', import.meta.url));

/** A port that was free a moment ago: bound on 127.0.0.1:0, then closed. Nothing listens there. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

export interface ShimProcess {
  port: number;
  stop(): Promise<void>;
}

/** Starts the ClickHouse HTTP shim (chDB in a child process) on `port` over `dataDir`. */
export async function startShim(port: number, dataDir: string): Promise<ShimProcess> {
  const child: ChildProcess = spawn(process.execPath, [SHIM, String(port), dataDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const listening = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`ClickHouse shim exited with ${code} before listening`)));
  });
  return {
    port: listening,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

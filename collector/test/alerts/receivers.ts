import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as netServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A loopback JSON receiver answering from a script (status, headers) and recording every body. */
export async function startReceiver(script: () => { status: number; headers?: Record<string, string> }) {
  const bodies: { at: number; body: unknown }[] = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => {
      text += c;
    });
    req.on('end', () => {
      bodies.push({ at: Date.now(), body: JSON.parse(text || 'null') });
      const r = script();
      res.writeHead(r.status, { 'content-type': 'application/json', ...r.headers });
      res.end(r.status >= 400 ? JSON.stringify({ error: `status ${r.status}` }) : '{}');
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, bodies, close: () => new Promise<void>((ok) => server.close(() => ok())) };
}

async function freePort(): Promise<number> {
  const s = netServer();
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((ok) => s.close(() => ok()));
  return port;
}

/** Debian's prometheus-alertmanager on a loopback port with its own config and storage. */
export async function startAlertmanager() {
  const dir = mkdtempSync(join(tmpdir(), 'faultline-am-'));
  const config = join(dir, 'alertmanager.yml');
  writeFileSync(config, 'route:\n  receiver: blackhole\n  group_wait: 1s\nreceivers:\n  - name: blackhole\n');
  const port = await freePort();
  const child: ChildProcess = spawn(
    '/usr/bin/prometheus-alertmanager',
    [
      `--config.file=${config}`,
      `--storage.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--cluster.listen-address=',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr?.on('data', (c) => {
    log += c;
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/-/ready`)).ok) break;
    } catch {}
    if (i > 100) throw new Error(`alertmanager did not start: ${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    async alerts(): Promise<
      {
        labels: Record<string, string>;
        startsAt: string;
        endsAt: string;
        annotations: Record<string, string>;
      }[]
    > {
      return (await fetch(`${url}/api/v2/alerts`)).json();
    },
    async close() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

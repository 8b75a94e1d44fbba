import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import type { Store } from '../../src/types.js';

// A real collector process (the CLI, from source) under load gets SIGTERM mid-run. Every span it
// acknowledged must be in otel_traces when the data directory is reopened; nothing more.
const dir = mkdtempSync(join(tmpdir(), 'faultline-h4b-sigterm-'));
const CLI = join(import.meta.dirname, '..', 'receiver', 'helpers', 'cli-from-source.ts');
const SPANS_PER_REQUEST = 50;
let child: ChildProcess | undefined;
let store: Store | undefined;

afterAll(async () => {
  child?.kill('SIGKILL');
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

function startChild(): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', CLI, '--port', '0', '--data-dir', join(dir, 'data')],
    {
      env: { ...process.env, FAULTLINE_SPOOL_DIR: join(dir, 'spool'), FAULTLINE_INGEST_TOKEN: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk;
      const match = /listening on (http:\/\/[^/\s]+)\/v1\/traces/.exec(out);
      if (match) resolve({ child: proc, url: match[1]!, output: () => out });
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', (c) => {
      out += c;
    });
    proc.once('exit', (code) => reject(new Error(`collector exited early (${code}):\n${out}`)));
  });
}

let sequence = 0;
function body(): string {
  const spans = [];
  for (let i = 0; i < SPANS_PER_REQUEST; i++) {
    sequence++;
    spans.push({
      traceId: `${'a'.repeat(16)}${sequence.toString(16).padStart(16, '0')}`,
      spanId: sequence.toString(16).padStart(16, '0'),
      name: 'load',
      kind: 3,
      startTimeUnixNano: String(1_732_886_400_000_000_000n + BigInt(sequence)),
      endTimeUnixNano: String(1_732_886_400_001_000_000n + BigInt(sequence)),
      attributes: [{ key: 'faultline.source', value: { stringValue: 'http' } }],
    });
  }
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'sigterm-load' } }] },
        scopeSpans: [{ spans }],
      },
    ],
  });
}

function post(url: string, agent: Agent, payload: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request(
      `${url}/v1/traces`,
      { method: 'POST', agent, headers: { 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(payload);
  });
}

it('drains in-flight batches on SIGTERM: rows == spans acknowledged', { timeout: 120_000 }, async () => {
  const started = await startChild();
  child = started.child;
  const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  const statuses: Record<number, number> = {};
  let acked = 0;
  let stop = false;
  const workers = Array.from({ length: 8 }, async () => {
    while (!stop) {
      const status = await post(started.url, agent, body());
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status === 200) acked += SPANS_PER_REQUEST;
      if (status === 0) return; // connection refused: the collector is gone
      if (status === 503) await new Promise((r) => setTimeout(r, 20));
    }
  });
  await new Promise((r) => setTimeout(r, 2_000));
  expect(acked).toBeGreaterThan(0);
  child.kill('SIGTERM');
  const code = await exited;
  stop = true;
  await Promise.all(workers);
  agent.destroy();
  expect(code, started.output()).toBe(0);
  expect(started.output()).toMatch(/SIGTERM, draining/);

  store = await openStore({ dataDir: join(dir, 'data') });
  const result = await store.runReadOnly<{ n: number; distinctSpans: number }>(
    'SELECT count() AS n, uniqExact(SpanId) AS distinctSpans FROM otel_traces',
  );
  const { n, distinctSpans } = result.rows[0]!;
  expect({ rows: Number(n), distinct: Number(distinctSpans), statuses }).toEqual({
    rows: acked,
    distinct: acked,
    statuses,
  });
  const logged = /stopped; (\d+) spans acknowledged/.exec(started.output());
  expect(Number(logged?.[1])).toBe(acked);
});

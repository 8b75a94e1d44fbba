import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '@faultline/sql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// POST /api/sql as the route handler answers it, over a real embedded store: free SQL goes through
// the collector's console (refusals say what is allowed), the body is read with a cap, and the
// request's signal stops a statement in the engine when the browser goes away.
let dir: string;
let store: Store;
let POST: (request: Request) => Promise<Response>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fl-sql-console-'));
  // The route opens the store the same way the server does: from the environment.
  process.env.FAULTLINE_DATA_DIR = join(dir, 'data');
  ({ POST } = await import('../app/api/sql/route'));
  const { openStore } = await import('@faultline/sql');
  store = await openStore();
});

afterAll(async () => {
  await store?.close();
  delete process.env.FAULTLINE_DATA_DIR;
  rmSync(dir, { recursive: true, force: true });
});

const post = (body: unknown, init: RequestInit = {}) =>
  POST(
    new Request('http://127.0.0.1/api/sql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
      ...init,
    }),
  );

describe('POST /api/sql', () => {
  it('runs a SELECT over Faultline tables', async () => {
    const res = await post({ sql: 'SELECT count() AS n FROM failures' });
    expect(res.status).toBe(200);
    const json = (await res.json()) as { rows: unknown[]; columns: unknown[]; truncated: boolean };
    expect(json).toMatchObject({
      rows: [{ n: 0 }],
      columns: [{ name: 'n', type: 'UInt64' }],
      truncated: false,
    });
  });

  it('refuses what is not Faultline data with 400 and what is allowed', async () => {
    for (const sql of [
      "SELECT * FROM file('/etc/passwd', 'LineAsString')",
      'SELECT 1; SELECT 2',
      'KILL QUERY WHERE 1',
      "INSERT INTO failures (class) VALUES ('validation')",
    ]) {
      const res = await post({ sql });
      expect(res.status, sql).toBe(400);
      const { error } = (await res.json()) as { error: string };
      expect(error).toMatch(/The SQL console is read-only \(ClickHouse readonly = 1\)/);
      expect(error).not.toMatch(/root:x:0:0/);
    }
  });

  it('caps rows at the console limit', async () => {
    const res = await post({ sql: 'SELECT number FROM numbers(10000000)' });
    const json = (await res.json()) as { rows: unknown[]; truncated: boolean };
    expect(json.rows).toHaveLength(10_000);
    expect(json.truncated).toBe(true);
  });

  it('runs named queries as before', async () => {
    const res = await post({
      name: 'top_failure_classes',
      params: { from: '2026-11-29T00:00:00Z', to: '2026-11-30T00:00:00Z', service: '' },
    });
    expect(res.status).toBe(200);
  });

  it('reads at most 256 KiB of body and answers 413; a body that is not JSON 400', async () => {
    const big = JSON.stringify({ sql: `SELECT '${'x'.repeat(300 * 1024)}'` });
    const res = await post(big);
    expect(res.status).toBe(413);
    // Without a content-length (a stream), the cap holds while reading.
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
      },
    });
    const streamed = await POST(
      new Request('http://127.0.0.1/api/sql', {
        method: 'POST',
        body: stream,
        duplex: 'half',
      } as RequestInit),
    );
    expect(streamed.status).toBe(413);
    const notJson = await post('SELECT 1');
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { error: string }).error).toMatch(/not JSON/);
  });

  it('a statement whose browser went away is stopped at once', async () => {
    const abort = new AbortController();
    const started = performance.now();
    const res = post(
      { sql: 'SELECT count() FROM numbers(100000000000) WHERE NOT ignore(sipHash64(number))' },
      { signal: abort.signal },
    );
    setTimeout(() => abort.abort(), 300);
    const answer = await res;
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(((await answer.json()) as { error: string }).error).toMatch(/cancelled/);
  });
});

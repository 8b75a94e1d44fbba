import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '@faultline/sql';
import { openStore } from '@faultline/sql';

export interface TestStore {
  store: Store;
  dir: string;
  spoolDir: string;
  cleanup(): Promise<void>;
}

/** A real embedded chDB store in a fresh temp directory (one per test file: one per process). */
export async function openTestStore(prefix: string): Promise<TestStore> {
  const dir = mkdtempSync(join(tmpdir(), `faultline-h4b-${prefix}-`));
  const store = await openStore({ dataDir: join(dir, 'data') });
  return {
    store,
    dir,
    spoolDir: join(dir, 'spool'),
    async cleanup() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Reads back otel_traces rows of one trace, exporter columns as ClickHouse returns them. */
export async function traceRows(store: Store, traceId: string): Promise<Record<string, unknown>[]> {
  const result = await store.runReadOnly(
    'SELECT * FROM otel_traces WHERE TraceId = {trace:String} ORDER BY Timestamp, SpanId',
    { trace: traceId },
  );
  return result.rows;
}

export async function failureRows(store: Store, traceId: string): Promise<Record<string, unknown>[]> {
  const result = await store.runReadOnly(
    'SELECT * FROM failures WHERE TraceId = {trace:String} ORDER BY Timestamp, SpanId',
    { trace: traceId },
  );
  return result.rows;
}

export async function countRows(store: Store, table: 'otel_traces' | 'failures'): Promise<number> {
  const result = await store.runReadOnly<{ n: number }>(`SELECT count() AS n FROM ${table}`);
  return Number(result.rows[0]?.n ?? 0);
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { insertBatch } from '../../../src/connection/insert-batch.js';
import { serializeRows } from '../../../src/connection/serialize-rows.js';
import { openStore } from '../../../src/open-store.js';
import type { Store, TraceRow } from '../../../src/types.js';
import { makeFailureRow, makeRow } from '../../support/trace-row-fixture.js';

export interface ConsoleStore {
  store: Store;
  /** A scratch directory of the test (files the console must not write land here). */
  dir: string;
  dataDir: string;
  close(): Promise<void>;
}

/** An embedded store in a fresh temp directory (one per test file: chDB binds one per process). */
export async function openConsoleStore(prefix: string): Promise<ConsoleStore> {
  const dir = mkdtempSync(join(tmpdir(), `fl-console-${prefix}-`));
  const dataDir = join(dir, 'data');
  const store = await openStore({ dataDir });
  return {
    store,
    dir,
    dataDir,
    async close() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const call = (service: string, ok: boolean, failure?: Record<string, string>): TraceRow =>
  ok
    ? makeRow({
        ServiceName: service,
        SpanKind: 'Client',
        SpanName: 'GET',
        SpanAttributes: { 'faultline.source': 'http' },
      })
    : makeFailureRow({ source: 'http', retryable: 'false', ...failure }, { ServiceName: service });

/**
 * What every console test reads: outbound calls of two services on 2026-11-29 12:00 UTC, by
 * class. `checkout` made 5 calls (2 rate_limit 429, 1 transient 503 failed), `payments` 1 (422).
 */
export const SEEDED = {
  spans: 6,
  failuresByClass: { rate_limit: 2, transient: 1, validation: 1 },
  callsByService: { checkout: { calls: 5, failures: 3 }, payments: { calls: 1, failures: 1 } },
  from: '2026-11-29 11:00:00',
  to: '2026-11-29 13:00:00',
} as const;

export async function seedCalls(store: Store): Promise<void> {
  const rows = [
    call('checkout', true),
    call('checkout', true),
    call('checkout', false, { class: 'rate_limit', code: '429', retryable: 'true' }),
    call('checkout', false, { class: 'rate_limit', code: '429', retryable: 'true' }),
    call('checkout', false, { class: 'transient', code: '503', retryable: 'true' }),
    call('payments', false, { class: 'validation', code: '422', message: "card number isn't valid" }),
  ];
  await insertBatch(store.client, serializeRows(rows));
}

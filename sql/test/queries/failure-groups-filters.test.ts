import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBatch } from '../../src/connection/insert-batch.js';
import { serializeRows } from '../../src/connection/serialize-rows.js';
import { openStore } from '../../src/index.js';
import type { Store, TraceRow } from '../../src/types.js';
import { dateTime64, hexId, makeFailureRow, makeRow } from '../support/trace-row-fixture.js';

const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);
const HOUR = 3_600_000;

/**
 * checkout's first-hand failures, counted by hand: to 127.0.0.1:37702 ECONNREFUSED ×3 and 503 ×1
 * (transient), to 10.0.0.9:8080 ECONNREFUSED ×2 (transient), to postgresql shop 23505 ×2
 * (validation); and checkout's own SERVER span refusing a request, 401 ×1 (authentication, no
 * dependency, not an outbound call). Each failure its own trace, so none is an echo.
 */
function scenario(): TraceRow[] {
  const rows: TraceRow[] = [];
  let at = T0 + 60_000;
  const client = (cls: string, code: string, attrs: Record<string, string>) =>
    rows.push(
      makeFailureRow(
        { class: cls, source: attrs['db.system.name'] ? 'db' : 'http', code, retryable: 'false' },
        {
          Timestamp: dateTime64(at++),
          ServiceName: 'checkout',
          SpanAttributes: {
            ...attrs,
            'faultline.class': cls,
            'faultline.source': attrs['db.system.name'] ? 'db' : 'http',
            'faultline.code': code,
            'faultline.correlation_id': `c-${at}`,
          },
        },
      ),
    );
  const inventory = { 'server.address': '127.0.0.1', 'server.port': '37702' };
  for (let i = 0; i < 3; i++) client('transient', 'ECONNREFUSED', inventory);
  client('transient', '503', inventory);
  for (let i = 0; i < 2; i++)
    client('transient', 'ECONNREFUSED', { 'server.address': '10.0.0.9', 'server.port': '8080' });
  for (let i = 0; i < 2; i++)
    client('validation', '23505', { 'db.system.name': 'postgresql', 'db.namespace': 'shop' });
  rows.push(
    makeRow({
      Timestamp: dateTime64(at++),
      ServiceName: 'checkout',
      SpanKind: 'Server',
      StatusCode: 'Error',
      SpanAttributes: {
        'faultline.class': 'authentication',
        'faultline.source': 'http',
        'faultline.code': '401',
        'faultline.correlation_id': 'c-401',
      },
    }),
  );
  return rows.map((r) => ({ ...r, TraceId: hexId(16) }));
}

describe('failure_groups: filters that open exactly the rows a number counts', () => {
  let dir: string;
  let store: Store;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'faultline-groups-filters-'));
    store = await openStore({ dataDir: join(dir, 'data') });
    await insertBatch(store.client, serializeRows(scenario()));
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function total(filters: Record<string, unknown>): Promise<number> {
    const { rows } = await store.runNamed<{ failures: number }>('dashboard/failure_groups', {
      from: new Date(T0),
      to: new Date(T0 + HOUR),
      prev_from: new Date(T0 - HOUR),
      lookback_from: new Date(T0 - 7 * 24 * HOUR),
      service: '',
      source: '',
      class: '',
      dependency: '',
      code: '',
      none: [],
      outbound: 0,
      counted: '',
      left_out: [],
      limit: 500,
      ...filters,
    });
    return rows.reduce((s, r) => s + Number(r.failures), 0);
  }

  it('narrows by code and dependency together, not by either alone', async () => {
    expect(await total({})).toBe(9);
    expect(await total({ code: 'ECONNREFUSED' })).toBe(5);
    expect(await total({ dependency: '127.0.0.1:37702' })).toBe(4);
    expect(await total({ code: 'ECONNREFUSED', dependency: '127.0.0.1:37702' })).toBe(3);
  });

  it('matches an empty field only when none names it', async () => {
    expect(await total({ none: ['dependency'] })).toBe(1);
    expect(await total({ none: ['dependency'], class: 'authentication', code: '401' })).toBe(1);
    expect(await total({ none: ['code'] })).toBe(0);
  });

  it('keeps outbound calls only, and the classes counted against the budget or only those left out', async () => {
    expect(await total({ outbound: 1 })).toBe(8);
    expect(await total({ outbound: 1, counted: 'yes', left_out: ['validation'] })).toBe(6);
    expect(await total({ outbound: 1, counted: 'no', left_out: ['validation'] })).toBe(2);
    // Caller faults included: every class counts, none is left out.
    expect(await total({ counted: 'yes', left_out: [] })).toBe(9);
    expect(await total({ counted: 'no', left_out: [] })).toBe(0);
  });
});

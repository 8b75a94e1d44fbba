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
const ts = (ms: number) => ({ Timestamp: dateTime64(ms) });

/**
 * checkout calls inventory over HTTP; inventory answers 503. Two hours before the range the same
 * call failed the same way, and inventory's SERVER span of that trace says the failure was
 * inventory's own: checkout's CLIENT 503 then was an echo, not a checkout failure. In the range,
 * inventory does not report (its span is lost), so checkout's 503 is first-hand — and it is the
 * group's first first-hand occurrence: "new", not "ongoing" because of an earlier echo.
 */
function scenario(): TraceRow[] {
  const rows: TraceRow[] = [];
  const envelope = {
    class: 'transient',
    source: 'http',
    code: '503',
    message: 'unavailable',
    retryable: 'true',
  };
  const client = (at: number, traceId: string, spanId: string) =>
    makeFailureRow(envelope, {
      ...ts(at),
      TraceId: traceId,
      SpanId: spanId,
      ServiceName: 'checkout',
      SpanName: 'GET',
      SpanAttributes: {
        'http.request.method': 'GET',
        'server.address': 'inventory',
        'http.response.status_code': '503',
        'faultline.class': 'transient',
        'faultline.source': 'http',
        'faultline.code': '503',
        'faultline.message': 'unavailable',
        'faultline.retryable': 'true',
      },
    });
  // Earlier: the echo (checkout's CLIENT span) and the callee's own failed SERVER span under it.
  const earlierTrace = hexId(16);
  const earlierClient = hexId(8);
  rows.push(client(T0 - 2 * HOUR, earlierTrace, earlierClient));
  rows.push(
    makeRow({
      ...ts(T0 - 2 * HOUR + 1),
      TraceId: earlierTrace,
      ParentSpanId: earlierClient,
      ServiceName: 'inventory',
      SpanName: 'GET /stock',
      SpanKind: 'Server',
      StatusCode: 'Error',
      // As the preload (or the collector's classification at ingest) stores the callee's failure.
      SpanAttributes: {
        'http.request.method': 'GET',
        'http.response.status_code': '503',
        'faultline.class': 'transient',
        'faultline.source': 'http',
        'faultline.code': '503',
        'faultline.retryable': 'true',
      },
    }),
  );
  // In the range: the same call fails, and no callee span arrives.
  rows.push(client(T0 + 10 * 60_000, hexId(16), hexId(8)));
  return rows;
}

describe('failure_groups: first seen from first-hand failures only', () => {
  let dir: string;
  let store: Store;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'faultline-groups-'));
    store = await openStore({ dataDir: join(dir, 'data') });
    await insertBatch(store.client, serializeRows(scenario()));
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an earlier echo of the same call does not make a first-hand group "ongoing"', async () => {
    const { rows } = await store.runNamed<{ service: string; code: string; failures: number; state: string }>(
      'dashboard/failure_groups',
      {
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
      },
    );
    const checkout = rows.filter((r) => r.service === 'checkout' && r.code === '503');
    expect(checkout).toHaveLength(1);
    expect(Number(checkout[0]!.failures)).toBe(1);
    expect(checkout[0]!.state).toBe('new');
  });
});

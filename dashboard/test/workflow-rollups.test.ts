import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '@faultline/collector';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The Workflows, Retries and Request pages read rollups fed by materialized views (workflows_rollup,
// retry_attempts) instead of raw spans. These spans arrive in two OTLP-like batches, the way
// services export separately, so one workflow lands as partial rows that the reads must merge.
let store: Store;
let dataDir: string;
const T0 = Date.UTC(2026, 0, 31, 9, 0, 0) / 1000;
const from = T0 - 60;
const to = T0 + 600;

const TRACE_A = 'a'.repeat(32);
const ts = (offsetMs: number) => {
  const ns = BigInt(T0 * 1000 + offsetMs) * 1_000_000n;
  const d = new Date(Number(ns / 1_000_000n));
  return `${d.toISOString().slice(0, 19).replace('T', ' ')}.${String(ns % 1_000_000_000n).padStart(9, '0')}`;
};

interface SpanSpec {
  at: number;
  service: string;
  name: string;
  kind: 'Server' | 'Client';
  trace: string;
  id: string;
  parent?: string;
  correlationId: string;
  durationMs: number;
  error?: boolean;
  envelope?: { class: string; source: string; code: string };
  attempt?: number;
}

function row(s: SpanSpec) {
  const attrs: Record<string, string> = { 'faultline.correlation_id': s.correlationId };
  if (s.kind === 'Client') attrs['faultline.source'] = s.envelope?.source ?? 'http';
  if (s.envelope) {
    attrs['faultline.class'] = s.envelope.class;
    attrs['faultline.code'] = s.envelope.code;
  }
  if (s.attempt) attrs['faultline.attempt'] = String(s.attempt);
  return {
    Timestamp: ts(s.at),
    TraceId: s.trace,
    SpanId: s.id.padStart(16, '0'),
    ParentSpanId: s.parent ? s.parent.padStart(16, '0') : '',
    SpanName: s.name,
    SpanKind: s.kind,
    ServiceName: s.service,
    SpanAttributes: attrs,
    Duration: s.durationMs * 1_000_000,
    StatusCode: s.error || s.envelope ? 'Error' : 'Unset',
  };
}

const wfA = 'h11-wf-a'; // root span failed; a transient failure retried once, successfully
const wfB = 'h11-wf-b'; // no root span; first call fails, last succeeds
const wfC = 'h11-wf-c'; // no root span; last call fails
const batch1: SpanSpec[] = [
  {
    at: 1000,
    service: 'checkout',
    name: 'GET /stock',
    kind: 'Client',
    trace: TRACE_A,
    id: 'a2',
    parent: 'a1',
    correlationId: wfA,
    durationMs: 100,
    envelope: { class: 'transient', source: 'http', code: '503' },
  },
  {
    at: 1500,
    service: 'inventory',
    name: 'SELECT stock',
    kind: 'Client',
    trace: TRACE_A,
    id: 'a4',
    parent: 'a2',
    correlationId: wfA,
    durationMs: 20,
    envelope: { class: 'transient', source: 'db', code: '40P01' },
  },
  {
    at: 5000,
    service: 'payments',
    name: 'POST /charge',
    kind: 'Client',
    trace: 'b'.repeat(32),
    id: 'b1',
    correlationId: wfB,
    durationMs: 10,
    envelope: { class: 'validation', source: 'sdk', code: 'ValidationException' },
  },
  {
    at: 6000,
    service: 'payments',
    name: 'POST /refund',
    kind: 'Client',
    trace: 'b'.repeat(32),
    id: 'b2',
    correlationId: wfB,
    durationMs: 10,
  },
];
const batch2: SpanSpec[] = [
  {
    at: 0,
    service: 'checkout',
    name: 'POST /checkout',
    kind: 'Server',
    trace: TRACE_A,
    id: 'a1',
    correlationId: wfA,
    durationMs: 3000,
    error: true,
  },
  {
    at: 2000,
    service: 'checkout',
    name: 'GET /stock',
    kind: 'Client',
    trace: TRACE_A,
    id: 'a3',
    parent: 'a1',
    correlationId: wfA,
    durationMs: 50,
    attempt: 2,
  },
  {
    at: 7000,
    service: 'payments',
    name: 'GET /quote',
    kind: 'Client',
    trace: 'c'.repeat(32),
    id: 'c1',
    correlationId: wfC,
    durationMs: 10,
  },
  {
    at: 8000,
    service: 'payments',
    name: 'POST /charge',
    kind: 'Client',
    trace: 'c'.repeat(32),
    id: 'c2',
    correlationId: wfC,
    durationMs: 10,
    envelope: { class: 'permanent', source: 'http', code: '404' },
  },
];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'faultline-h11-rollups-'));
  const { openStore } = await import('@faultline/collector');
  store = await openStore({ dataDir });
  for (const batch of [batch1, batch2]) {
    await store.client.insert({ table: 'otel_traces', values: batch.map(row), format: 'JSONEachRow' });
  }
});

afterAll(async () => {
  await store?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

type Row = Record<string, unknown>;
const named = async (name: string, params: Row) =>
  (await store.runNamed<Row>(`dashboard/${name}`, params)).rows;

describe('workflows_rollup via dashboard_workflows', () => {
  it('merges a workflow sent in two batches into one row with its steps, retries, outcome and first failure', async () => {
    const rows = await named('workflows_recent', { from, to, service: '', failed_only: false, limit: 10 });
    const byId = new Map(rows.map((r) => [r.correlation_id, r]));
    expect([...byId.keys()].sort()).toEqual([wfA, wfB, wfC]);
    expect(byId.get(wfA)).toMatchObject({
      started: T0,
      duration_ns: 3000000000,
      services: ['checkout', 'inventory'],
      steps: 2,
      failed_steps: 2,
      retries: 1,
      failed: true,
      first_failure_class: 'transient',
      first_failure_source: 'http',
      first_failure_code: '503',
    });
    expect(byId.get(wfB)).toMatchObject({
      steps: 2,
      failed_steps: 1,
      failed: false,
      first_failure_class: 'validation',
    });
    expect(byId.get(wfC)).toMatchObject({
      steps: 2,
      failed_steps: 1,
      failed: true,
      first_failure_code: '404',
    });

    const [summary] = await named('workflows_summary', { from, to, service: '' });
    expect(summary).toMatchObject({
      workflows: 3,
      failed_workflows: 2,
      total_steps: 6,
      total_failed_steps: 4,
    });
    const onlyInventory = await named('workflows_recent', {
      from,
      to,
      service: 'inventory',
      failed_only: false,
      limit: 10,
    });
    expect(onlyInventory.map((r) => r.correlation_id)).toEqual([wfA]);
    // A workflow that started before the range is not counted in it.
    const later = await named('workflows_summary', { from: T0 + 4, to, service: '' });
    expect(later[0]).toMatchObject({ workflows: 2 });
  });
});

describe('request_spans', () => {
  it('finds every span of a request by correlation id and by trace id, and nothing for an unknown id', async () => {
    const byCorrelation = await named('request_spans', { id: wfA });
    expect(byCorrelation.map((r) => r.span_id)).toEqual(
      ['a1', 'a2', 'a4', 'a3'].map((s) => s.padStart(16, '0')),
    );
    const byTrace = await named('request_spans', { id: TRACE_A });
    expect(byTrace).toEqual(byCorrelation);
    expect(await named('request_spans', { id: 'h11-no-such-request' })).toEqual([]);
  });
});

describe('retry_attempts', () => {
  it('attributes a retry to the failure before it, with the time waited in between', async () => {
    const rows = await named('retries_by_class', { from, to, service: '', source: '' });
    expect(rows).toEqual([
      {
        after_class: 'transient',
        retries: 1,
        succeeded: 1,
        max_attempt: 2,
        // Attempt 1 ended at +1.1 s, attempt 2 started at +2.0 s.
        wait_ns: 900000000,
        retry_duration_ns: 50000000,
      },
    ]);
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/index.js';
import type { Store, TraceRow } from '../../src/types.js';
import { insertAsExporter } from '../support/exporter-insert.js';
import { dateTime64, makeRow } from '../support/trace-row-fixture.js';

// Issue 30's echo rule: a client call is an echo when its callee's subtree holds a failure row,
// whatever status the callee's server span carries. Each request below is its own trace, written
// span by span as the preload exports it (faultline.caller_span_id on a failure below a server span:
// the caller's CLIENT span, the remote parent of its local root), with the ground truth by hand.
const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);
const RANGE = `from = '2026-11-29 11:00:00', to = '2026-11-29 13:00:00'`;

interface Span {
  id: string;
  parent: string;
  service: string;
  kind: 'Server' | 'Client' | 'Internal';
  name: string;
  at: number;
  ms: number;
  attrs?: Record<string, string>;
  failed?: boolean;
}

const id = (trace: string, span: string) => `${trace}${span}`.padStart(16, '0');

function rowsOf(trace: string, spans: Span[]): TraceRow[] {
  return spans.map((s) =>
    makeRow({
      Timestamp: dateTime64(T0 + s.at),
      TraceId: trace.repeat(16),
      SpanId: id(trace, s.id),
      ParentSpanId: s.parent === '' ? '' : id(trace, s.parent),
      ServiceName: s.service,
      SpanKind: s.kind,
      SpanName: s.name,
      Duration: s.ms * 1_000_000,
      StatusCode: s.failed ? 'Error' : 'Unset',
      SpanAttributes: { 'faultline.correlation_id': `req-${trace}`, ...s.attrs },
    }),
  );
}

function envelope(cls: string, source: string, code: string): Record<string, string> {
  return {
    'faultline.class': cls,
    'faultline.source': source,
    'faultline.code': code,
    'faultline.message': `${code} happened`,
    'faultline.retryable': 'false',
  };
}

/** The call a failure below a server span was serving, as the preload marks it. */
const servedCall = (trace: string, span: string) => ({ 'faultline.caller_span_id': id(trace, span) });

const http = (status: number) => ({
  'http.request.method': 'POST',
  'http.response.status_code': String(status),
});
const pg = { 'db.system.name': 'postgresql', 'db.query.text': 'INSERT INTO orders (id) VALUES ($1)' };

/**
 * checkout's request calling inventory: checkout's server span answering 422 (a failure row, the
 * echo of its call), its POST classified from inventory's answer (validation, `callCode`), and
 * inventory's server span answering 422: a failure row (`calleeServerFailed`, propagated or not) or
 * a span stored without an envelope.
 */
function checkoutCallingInventory(o: {
  ms: number;
  callMs: number;
  callCode: string;
  calleeMs: number;
  calleeServerFailed: boolean;
  calleePropagated: boolean;
}): Span[] {
  const calleeFailure = {
    ...envelope('validation', 'http', '422'),
    ...(o.calleePropagated ? { 'faultline.propagated': 'true' } : {}),
  };
  return [
    {
      id: '1',
      parent: '',
      service: 'checkout',
      kind: 'Server',
      name: 'POST /checkout',
      at: 0,
      ms: o.ms,
      attrs: { ...http(422), ...envelope('validation', 'http', '422'), 'faultline.propagated': 'true' },
      failed: true,
    },
    checkoutCall('1', o.callMs, {
      ...http(422),
      ...envelope('validation', 'http', o.callCode),
      'url.full': 'http://inventory/reserve',
    }),
    inventoryServer(
      o.calleeMs,
      o.calleeServerFailed ? { ...http(422), ...calleeFailure } : http(422),
      o.calleeServerFailed,
    ),
  ];
}

/** checkout's failed POST to inventory (span 2), under `parent`. */
function checkoutCall(parent: string, ms: number, attrs: Record<string, string>): Span {
  return {
    id: '2',
    parent,
    service: 'checkout',
    kind: 'Client',
    name: 'POST',
    at: 10,
    ms,
    attrs,
    failed: true,
  };
}

/** inventory's server span (3) for checkout's call. */
function inventoryServer(ms: number, attrs: Record<string, string>, failed = false): Span {
  return {
    id: '3',
    parent: '2',
    service: 'inventory',
    kind: 'Server',
    name: 'POST /reserve',
    at: 11,
    ms,
    attrs,
    failed,
  };
}

/** inventory's INSERT failing with PostgreSQL 23505, marked with the call it served when `mark` says. */
function failedInsert(span: Pick<Span, 'id' | 'parent' | 'name' | 'at'>, mark = {}): Span {
  return {
    ...span,
    service: 'inventory',
    kind: 'Client',
    ms: 3,
    attrs: { ...pg, ...envelope('validation', 'db', '23505'), ...mark },
    failed: true,
  };
}

/**
 * The three-service request of the issue: checkout → inventory → PostgreSQL 23505. inventory
 * answers 422 with the 23505 in its body; checkout's client call classifies that body (validation,
 * 23505). `calleeServerFailed` says whether inventory's server span is a failure row (the preload
 * and the collector make a 4xx answer one, propagated by the failure below it) or not (a server
 * span stored without an envelope: the case). Either way one failure happened.
 */
function threeServices(trace: string, calleeServerFailed: boolean): TraceRow[] {
  return rowsOf(trace, [
    ...checkoutCallingInventory({
      ms: 100,
      callMs: 20,
      callCode: '23505',
      calleeMs: 18,
      calleeServerFailed,
      calleePropagated: true,
    }),
    {
      id: '4',
      parent: '3',
      service: 'inventory',
      kind: 'Client',
      name: 'pg-pool.connect',
      at: 12,
      ms: 1,
      attrs: { 'db.system.name': 'postgresql', 'faultline.source': 'db', 'faultline.call_role': 'checkout' },
    },
    failedInsert({ id: '5', parent: '3', name: 'pg.query:INSERT test', at: 14 }, servedCall(trace, '2')),
  ]);
}

/**
 * Four services: storefront → checkout → inventory → PostgreSQL, each server span answering 200
 * with the error in a GraphQL errors body (no failure row), the failed INSERT under inventory's
 * request handler span (express), not directly under its server span. Each service between holds
 * a failure row of its own (its call to the next, classified from the body), which names the call
 * it served.
 */
function fourServices(trace: string): TraceRow[] {
  const errorsBody = {
    ...http(200),
    ...envelope('validation', 'http', '23505'),
  };
  return rowsOf(trace, [
    {
      id: '1',
      parent: '',
      service: 'storefront',
      kind: 'Server',
      name: 'POST /order',
      at: 0,
      ms: 200,
      attrs: http(200),
    },
    {
      id: '2',
      parent: '1',
      service: 'storefront',
      kind: 'Client',
      name: 'POST',
      at: 5,
      ms: 150,
      attrs: errorsBody,
      failed: true,
    },
    {
      id: '3',
      parent: '2',
      service: 'checkout',
      kind: 'Server',
      name: 'POST /checkout',
      at: 6,
      ms: 140,
      attrs: http(200),
    },
    {
      id: '4',
      parent: '3',
      service: 'checkout',
      kind: 'Client',
      name: 'POST',
      at: 10,
      ms: 100,
      attrs: { ...errorsBody, ...servedCall(trace, '2') },
      failed: true,
    },
    {
      id: '5',
      parent: '4',
      service: 'inventory',
      kind: 'Server',
      name: 'POST /reserve',
      at: 11,
      ms: 90,
      attrs: http(200),
    },
    {
      id: '6',
      parent: '5',
      service: 'inventory',
      kind: 'Internal',
      name: 'request handler - /reserve',
      at: 12,
      ms: 80,
    },
    failedInsert({ id: '7', parent: '6', name: 'pg.query:INSERT test', at: 20 }, servedCall(trace, '4')),
  ]);
}

/**
 * inventory refuses checkout's request from its own validation: nothing below its server span
 * failed. `calleeServerFailed`: its 422 server span is a failure row (as the preload stores it: the
 * failure is inventory's, counted there, and checkout's call is its echo) or not (nothing in the
 * callee's subtree: checkout's call stays first-hand, a caller fault counted at the caller).
 */
function refused(trace: string, calleeServerFailed: boolean): TraceRow[] {
  return rowsOf(
    trace,
    checkoutCallingInventory({
      ms: 50,
      callMs: 10,
      callCode: '422',
      calleeMs: 8,
      calleeServerFailed,
      calleePropagated: false,
    }),
  );
}

/**
 * A callee under another SDK: its failure carries no faultline.caller_span_id, and its server span
 * answered 200 (no failure row). Nothing on the rows links the 23505 to checkout's call, so that
 * call stays first-hand beside it (what the rule cannot see without the preload's mark).
 */
function unmarkedCallee(trace: string): TraceRow[] {
  return rowsOf(trace, [
    checkoutCall('', 20, { ...http(200), ...envelope('validation', 'http', '23505') }),
    inventoryServer(18, http(200)),
    failedInsert({ id: '5', parent: '3', name: 'INSERT orders', at: 14 }),
  ]);
}

const TRACES: Record<string, TraceRow[]> = {
  a1: threeServices('a1', true),
  a2: threeServices('a2', false),
  b1: fourServices('b1'),
  c1: refused('c1', false),
  c2: refused('c2', true),
  d1: unmarkedCallee('d1'),
};

let dir: string;
let store: Store;

async function rows<T>(sql: string): Promise<T[]> {
  const rs = await store.client.query({ query: sql, format: 'JSONEachRow' });
  return rs.json<T>();
}

interface Counted {
  span: string;
  service: string;
  kind: string;
  code: string;
}

/** The failure rows of one trace, and which of them first_hand_failures keeps. */
async function counted(
  trace: string,
  view = 'first_hand_failures',
): Promise<{ all: Counted[]; firstHand: Counted[] }> {
  const where = `WHERE TraceId = '${trace.repeat(16)}'`;
  const cols = `right(SpanId, 1) AS span, ServiceName AS service, SpanKind AS kind, code`;
  const all = await rows<Counted>(`SELECT ${cols} FROM failures ${where} ORDER BY span`);
  const firstHand = await rows<Counted>(`SELECT ${cols} FROM ${view}(${RANGE}) ${where} ORDER BY span`);
  return { all, firstHand };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fl-first-hand-callee-'));
  store = await openStore({ dataDir: join(dir, 'data') });
  // Each service's spans in a batch of their own, callees first: arrival order must not matter.
  const all = Object.values(TRACES).flat();
  for (const service of ['inventory', 'checkout', 'storefront']) {
    await insertAsExporter(
      store,
      all.filter((r) => r.ServiceName === service),
    );
  }
});

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a client call is an echo when its callee's subtree holds a failure", () => {
  it('checkout → inventory → PostgreSQL 23505, inventory answering 422 as a failure row: one first-hand failure', async () => {
    const { all, firstHand } = await counted('a1');
    expect(all.map((r) => r.span)).toEqual(['1', '2', '3', '5']);
    expect(firstHand).toEqual([{ span: '5', service: 'inventory', kind: 'Client', code: '23505' }]);
  });

  it("the same request with inventory's 422 server span stored without an envelope: still one, checkout's call an echo", async () => {
    const { all, firstHand } = await counted('a2');
    // checkout's server and client spans and the 23505: 3 failure rows, 1 failure.
    expect(all.map((r) => r.span)).toEqual(['1', '2', '5']);
    expect(firstHand).toEqual([{ span: '5', service: 'inventory', kind: 'Client', code: '23505' }]);
  });

  it('four services, every server span answering 200 with an errors body, the INSERT under a handler span: one', async () => {
    const { all, firstHand } = await counted('b1');
    expect(all.map((r) => `${r.service}/${r.kind}`)).toEqual([
      'storefront/Client',
      'checkout/Client',
      'inventory/Client',
    ]);
    expect(firstHand).toEqual([{ span: '7', service: 'inventory', kind: 'Client', code: '23505' }]);
  });

  it("a callee that refused the request with nothing failing below it leaves the caller's 422 first-hand", async () => {
    const { firstHand } = await counted('c1');
    expect(firstHand).toEqual([{ span: '2', service: 'checkout', kind: 'Client', code: '422' }]);
  });

  it("a callee whose own 422 is a failure row holds the failure: the caller's call is its echo (unchanged)", async () => {
    const { firstHand } = await counted('c2');
    expect(firstHand).toEqual([{ span: '3', service: 'inventory', kind: 'Server', code: '422' }]);
  });

  it('a failure without the mark under a server span that did not fail does not reach the caller', async () => {
    const { firstHand } = await counted('d1');
    expect(firstHand.map((r) => r.span)).toEqual(['2', '5']);
  });

  it('first_hand_client_failures agrees on every request: the outbound calls among first_hand_failures', async () => {
    for (const trace of Object.keys(TRACES)) {
      const { firstHand } = await counted(trace);
      const client = await counted(trace, 'first_hand_client_failures');
      expect(client.firstHand).toEqual(firstHand.filter((r) => r.kind === 'Client'));
    }
  });

  it("caller_key names the call each row's request came from, and 0 where nothing says", async () => {
    const got = await rows<{ span: string; caller: string }>(
      `SELECT right(SpanId, 1) AS span,
              multiIf(caller_key = 0, '', caller_key = cityHash64(TraceId, ParentSpanId), 'parent', 'mark') AS caller
       FROM failures WHERE TraceId = '${'a1'.repeat(16)}' ORDER BY span`,
    );
    // The root server span has no caller; checkout's call was made in a request nobody sent it.
    expect(got).toEqual([
      { span: '1', caller: '' },
      { span: '2', caller: '' },
      { span: '3', caller: 'parent' },
      { span: '5', caller: 'mark' },
    ]);
  });
});

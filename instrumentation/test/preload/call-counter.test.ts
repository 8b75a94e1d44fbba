import { type Attributes, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { CallCounter, MAX_SERIES } from '../../src/preload/pipeline/call-counter.js';
import type { CountTable } from '../../src/preload/pipeline/count-table.js';

/**
 * The counter on synthetic ended spans, shaped as the preload leaves them at onEnd (typed
 * attributes, the lean export's omissions): a request scenario whose true calls and failures are
 * known, and the rules' edge cases (transport requests, checkouts, an SDK's internal retries, a
 * server that failed by its status alone, roots that are not entries).
 */
interface SpanInit {
  name?: string;
  kind: SpanKind;
  attributes?: Attributes;
  error?: boolean;
  /** A parent span id; absent for a root span. */
  parent?: string;
}

function span({ name = 'op', kind, attributes = {}, error = false, parent }: SpanInit): ReadableSpan {
  return {
    name,
    kind,
    attributes,
    status: { code: error ? SpanStatusCode.ERROR : SpanStatusCode.UNSET },
    parentSpanContext: parent ? { traceId: 'a'.repeat(32), spanId: parent, traceFlags: 0 } : undefined,
  } as unknown as ReadableSpan;
}

const UPSTREAM = { 'http.request.method': 'GET', 'server.address': 'api.example.com', 'server.port': 8443 };
const SERVED = { 'http.request.method': 'POST', 'http.route': '/checkout', 'server.address': 'shop.local' };

/** Every series' total (moved since the last read), keyed by its attributes in a fixed order. */
function totals(table: CountTable): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of table.moved()) {
    const key = Object.entries(s.attributes)
      .map(([k, v]) => `${k.replace('faultline.', '')}=${String(v)}`)
      .join(' ');
    out[key] = s.value;
  }
  return out;
}

const CLIENT_CALL = 'span_kind=Client source=http dependency=api.example.com:8443 entry=false';
const ENTRY = 'span_kind=Server source=http dependency= entry=true';

describe('CallCounter', () => {
  it('counts a request scenario: 20 entries, their 20 calls, 4 failed, each failure echoed', () => {
    const counter = new CallCounter();
    for (let i = 0; i < 20; i++) {
      const fails = i % 5 === 0;
      const limited = i === 5;
      counter.count(
        span({
          kind: SpanKind.CLIENT,
          parent: 'b'.repeat(16),
          error: fails,
          attributes: {
            ...UPSTREAM,
            'http.response.status_code': fails ? (limited ? 429 : 503) : 200,
            ...(fails
              ? {
                  'faultline.class': limited ? 'rate_limit' : 'transient',
                  'faultline.code': limited ? '429' : '503',
                }
              : {}),
          },
        }),
      );
      // A lean export: the server's 502 carries only its error status; its envelope is derived.
      counter.count(
        span({
          kind: SpanKind.SERVER,
          error: fails,
          attributes: {
            ...SERVED,
            'http.response.status_code': fails ? 502 : 200,
            ...(fails ? { 'faultline.propagated': true } : {}),
          },
        }),
      );
    }
    expect(counter.counted).toBe(40);
    expect(totals(counter.calls)).toEqual({ [CLIENT_CALL]: 20, [ENTRY]: 20 });
    expect(totals(counter.failures)).toEqual({
      [`${CLIENT_CALL} class=transient code=503 propagated=false`]: 3,
      [`${CLIENT_CALL} class=rate_limit code=429 propagated=false`]: 1,
      [`${ENTRY} class=transient code=502 propagated=true`]: 4,
    });
    // Read again: nothing moved, nothing to report.
    expect(totals(counter.calls)).toEqual({});
    counter.count(span({ kind: SpanKind.CLIENT, attributes: UPSTREAM }));
    expect(totals(counter.calls)).toEqual({ [CLIENT_CALL]: 21 });
  });

  it('counts an SDK operation retried internally as N calls, N - 1 failed with the previous envelope', () => {
    const counter = new CallCounter();
    const dynamo = { 'rpc.system': 'aws-api', 'rpc.service': 'DynamoDB', 'rpc.method': 'GetItem' };
    // Three attempts: two throttled, the last one succeeded.
    counter.count(
      span({
        kind: SpanKind.CLIENT,
        attributes: {
          ...dynamo,
          'faultline.attempts': 3,
          'faultline.previous_class': 'rate_limit',
          'faultline.previous_code': 'ThrottlingException',
        },
      }),
    );
    // Two attempts, both failed: the last one's envelope, and the previous one's.
    counter.count(
      span({
        kind: SpanKind.CLIENT,
        error: true,
        attributes: {
          ...dynamo,
          'faultline.source': 'sdk',
          'faultline.class': 'transient',
          'faultline.code': 'ServiceUnavailable',
          'faultline.attempts': 2,
          'faultline.previous_class': 'transient',
          'faultline.previous_code': 'InternalServerError',
        },
      }),
    );
    const call = 'span_kind=Client source=sdk dependency=aws DynamoDB/GetItem entry=false';
    expect(counter.counted).toBe(5);
    expect(totals(counter.calls)).toEqual({ [call]: 5 });
    expect(totals(counter.failures)).toEqual({
      [`${call} class=rate_limit code=ThrottlingException propagated=false`]: 2,
      [`${call} class=transient code=ServiceUnavailable propagated=false`]: 1,
      [`${call} class=transient code=InternalServerError propagated=false`]: 1,
    });
  });

  it('leaves out what is no call: transport requests, checkouts, plain internal and producer spans', () => {
    const counter = new CallCounter();
    const pg = { 'db.system': 'postgresql', 'db.name': 'shop' };
    counter.count(
      span({ kind: SpanKind.CLIENT, attributes: { ...UPSTREAM, 'faultline.call_role': 'transport' } }),
    );
    counter.count(
      span({
        name: 'pg-pool.connect',
        kind: SpanKind.CLIENT,
        attributes: { ...pg, 'faultline.call_role': 'checkout' },
      }),
    );
    // A stock connect span that succeeded is a checkout by its name.
    counter.count(span({ name: 'pg.connect', kind: SpanKind.CLIENT, attributes: pg }));
    counter.count(span({ name: 'handler', kind: SpanKind.INTERNAL }));
    counter.count(
      span({ name: 'publish', kind: SpanKind.PRODUCER, attributes: { 'messaging.system': 'rabbitmq' } }),
    );
    expect(counter.counted).toBe(0);
    expect(totals(counter.calls)).toEqual({});
    // A connect that failed is a call that failed; an internal span the preload gave a source counts.
    counter.count(span({ name: 'pg.connect', kind: SpanKind.CLIENT, attributes: pg, error: true }));
    counter.count(
      span({
        name: 'better-sqlite3.run',
        kind: SpanKind.INTERNAL,
        attributes: { 'faultline.source': 'db', 'db.system.name': 'sqlite', 'db.namespace': 'main' },
      }),
    );
    expect(totals(counter.calls)).toEqual({
      'span_kind=Client source=db dependency=postgresql shop entry=false': 1,
      'span_kind=Internal source=db dependency=sqlite main entry=false': 1,
    });
    // Unclassified (an Error status nobody classified): class ''.
    expect(totals(counter.failures)).toEqual({
      'span_kind=Client source=db dependency=postgresql shop entry=false class= code= propagated=false': 1,
    });
  });

  it('marks only a root server span an entry, unless the preload said it is not', () => {
    const counter = new CallCounter();
    counter.count(span({ kind: SpanKind.SERVER, attributes: SERVED }));
    counter.count(span({ kind: SpanKind.SERVER, attributes: SERVED, parent: 'c'.repeat(16) }));
    counter.count(span({ kind: SpanKind.SERVER, attributes: { ...SERVED, 'faultline.entry': false } }));
    expect(totals(counter.calls)).toEqual({
      [ENTRY]: 1,
      'span_kind=Server source=http dependency= entry=false': 2,
    });
  });

  it('keeps totals exact past the series limit, under one overflow series', () => {
    const counter = new CallCounter();
    for (let i = 0; i < MAX_SERIES + 50; i++) {
      counter.count(span({ kind: SpanKind.CLIENT, attributes: { 'peer.service': `svc-${i}` } }));
    }
    counter.count(span({ kind: SpanKind.CLIENT, attributes: { 'peer.service': 'svc-0' } }));
    // A failure of a call past the limit cannot say which call it was: it overflows too.
    const failed = { 'faultline.class': 'transient', 'faultline.code': '503' };
    counter.count(span({ kind: SpanKind.CLIENT, attributes: { 'peer.service': 'svc-new', ...failed } }));
    counter.count(span({ kind: SpanKind.CLIENT, attributes: { 'peer.service': 'svc-1', ...failed } }));
    const series = [...counter.calls.moved()];
    expect(series).toHaveLength(MAX_SERIES + 1);
    expect(series.reduce((n, s) => n + s.value, 0)).toBe(MAX_SERIES + 53);
    expect(series.find((s) => s.attributes['otel.metric.overflow'] === true)?.value).toBe(51);
    expect(
      [...counter.failures.moved()].map((s) => [s.attributes['faultline.dependency'] ?? 'overflow', s.value]),
    ).toEqual([
      ['svc-1', 1],
      ['overflow', 1],
    ]);
  });

  it('never throws into the host, whatever the span holds', () => {
    const counter = new CallCounter();
    const broken = { kind: SpanKind.CLIENT, name: 'x', status: {} } as unknown as ReadableSpan;
    expect(() => counter.count(broken)).not.toThrow();
    expect(() => counter.count(null as unknown as ReadableSpan)).not.toThrow();
  });
});

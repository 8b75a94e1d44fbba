import { performance } from 'node:perf_hooks';
import { context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runInAttempt } from '../../src/policy/attempt-context.js';
import { createPreloadState, type PreloadState } from '../../src/preload/pipeline/preload-state.js';
import { FaultlineSpanProcessor } from '../../src/preload/pipeline/span-processor.js';
import { readConfig } from '../../src/preload/sdk/config.js';
import type { Envelope } from '../../src/types.js';
import { stored } from './helpers/stored-span.js';

const THROTTLED = {
  __type: 'com.amazonaws.dynamodb.v20120810#ThrottlingException',
  message: 'Rate of requests exceeds the allowed throughput.',
};

/**
 * The real SDK and the real span processor, spans shaped as the instrumentations make them
 * (names, kinds, attributes), for the rules no real library lets a test provoke on demand: a generic
 * operation envelope, an SDK that reports no attempt count, INTERNAL spans between a server and
 * its failing call, a connect that fails under a pool checkout.
 */
describe('call roles, propagation and attempts in the span processor', () => {
  let exporter: InMemorySpanExporter;
  let provider: BasicTracerProvider;
  let state: PreloadState;

  beforeEach(() => {
    exporter = new InMemorySpanExporter();
    state = createPreloadState(readConfig({}, {}).config);
    provider = new BasicTracerProvider({
      spanProcessors: [new FaultlineSpanProcessor(state), new SimpleSpanProcessor(exporter)],
    });
  });

  afterEach(async () => {
    await provider.shutdown();
  });

  const start = (name: string, kind: SpanKind, parent?: Span, attributes = {}): Span =>
    provider
      .getTracer('fl-h9-test')
      .startSpan(
        name,
        { kind, attributes },
        parent ? trace.setSpan(context.active(), parent) : context.active(),
      );
  /** The spans named so, with their attributes as the collector stores them (derived-attributes.ts). */
  const exported = (name: string): ReadableSpan[] =>
    exporter
      .getFinishedSpans()
      .filter((s) => s.name === name)
      .map(stored);
  const faultline = (span: ReadableSpan | undefined): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(span?.attributes ?? {}).filter(
        ([k]) =>
          k.startsWith('faultline.') &&
          k !== 'faultline.raw' &&
          k !== 'faultline.correlation_id' &&
          k !== 'faultline.entry',
      ),
    );

  /** An AWS SDK operation span. */
  const operation = (parent: Span): Span =>
    start('DynamoDB.GetItem', SpanKind.CLIENT, parent, {
      'rpc.system': 'aws-api',
      'rpc.service': 'DynamoDB',
      'rpc.method': 'GetItem',
    });

  /** One HTTP request of the operation, answered with `status` and, for 400s, a throttling body. */
  function transport(parent: Span, status: number): void {
    const span = start('POST', SpanKind.CLIENT, parent, {
      'http.request.method': 'POST',
      'url.full': 'http://127.0.0.1:1/',
    });
    span.setAttribute('http.response.status_code', status);
    if (status >= 400) {
      state.responses.set(span, {
        status,
        headers: { 'content-type': 'application/x-amz-json-1.0' },
        body: () => THROTTLED,
      });
    }
    span.end();
  }

  it('gives a generic operation envelope its transport’s specific one, and counts the attempts', () => {
    const request = start('GET /stock', SpanKind.SERVER);
    const op = operation(request);
    transport(op, 400);
    transport(op, 400);
    // The SDK failed with a bare status (what an unparsed error body leaves it with).
    op.setAttribute('http.response.status_code', 400);
    op.setStatus({ code: SpanStatusCode.ERROR, message: 'UnknownError' });
    op.end();
    request.end();
    expect(faultline(exported('DynamoDB.GetItem')[0])).toEqual({
      'faultline.source': 'sdk',
      'faultline.class': 'rate_limit',
      'faultline.code': 'ThrottlingException',
      'faultline.message': THROTTLED.message,
      'faultline.retryable': true,
      'faultline.attempts': 2,
      'faultline.previous_class': 'rate_limit',
      'faultline.previous_code': 'ThrottlingException',
      'faultline.previous_message': THROTTLED.message,
    });
    for (const span of exported('POST')) {
      expect(faultline(span)).toEqual({ 'faultline.source': 'http', 'faultline.call_role': 'transport' });
    }
    // The server span failed by itself: nothing below it that was a call failed.
    expect(faultline(exported('GET /stock')[0])).toEqual({});
  });

  it('keeps a specific operation envelope, and counts transports when the SDK reports no attempts', () => {
    const request = start('GET /stock', SpanKind.SERVER);
    const op = operation(request);
    transport(op, 400);
    transport(op, 200);
    op.end();
    const failing = operation(request);
    transport(failing, 400);
    failing.setAttribute('faultline.class', 'permanent');
    failing.setAttribute('faultline.code', 'ResourceNotFoundException');
    failing.end();
    request.end();
    const [ok, failed] = exported('DynamoDB.GetItem');
    expect(faultline(ok)).toEqual({
      'faultline.source': 'sdk',
      'faultline.attempts': 2,
      'faultline.previous_class': 'rate_limit',
      'faultline.previous_code': 'ThrottlingException',
      'faultline.previous_message': THROTTLED.message,
    });
    expect(faultline(failed)).toEqual({
      'faultline.source': 'sdk',
      'faultline.class': 'permanent',
      'faultline.code': 'ResourceNotFoundException',
    });
  });

  it('marks a failure propagated when a local span below it failed first, through INTERNAL spans', () => {
    const request = start('POST /orders', SpanKind.SERVER);
    const step = start('reserve', SpanKind.INTERNAL, request);
    const query = start('pg.query:INSERT test', SpanKind.CLIENT, step, {
      'db.system.name': 'postgresql',
      'db.query.text': 'INSERT INTO orders VALUES ($1)',
    });
    query.setStatus({ code: SpanStatusCode.ERROR, message: 'duplicate key (code: 23505)' });
    query.end();
    step.end();
    request.setAttribute('http.response.status_code', 422);
    request.end();
    expect(faultline(exported('pg.query:INSERT test')[0])).toMatchObject({ 'faultline.code': '23505' });
    expect(exported('pg.query:INSERT test')[0]?.attributes['faultline.propagated']).toBeUndefined();
    expect(faultline(exported('reserve')[0])).toEqual({});
    expect(faultline(exported('POST /orders')[0])).toMatchObject({
      'faultline.code': '422',
      'faultline.propagated': true,
    });
    // Marks are dropped as their spans end.
    expect(state.failures.size).toBe(0);
  });

  it('does not carry a failure the server handled: a 200 answer is no failure, and nothing stays marked', () => {
    const request = start('POST /orders', SpanKind.SERVER);
    const query = start('pg.query:INSERT test', SpanKind.CLIENT, request, {
      'db.system.name': 'postgresql',
      'db.query.text': 'INSERT INTO orders VALUES ($1)',
    });
    query.setStatus({ code: SpanStatusCode.ERROR, message: 'duplicate key (code: 23505)' });
    query.end();
    request.setAttribute('http.response.status_code', 200);
    request.end();
    expect(faultline(exported('POST /orders')[0])).toEqual({});
    expect(state.failures.size).toBe(0);
  });

  it('calls a successful checkout and connect checkout; a connect that failed makes its checkout an echo', () => {
    const request = start('GET /report', SpanKind.SERVER);
    const pg = { 'db.system.name': 'postgresql', 'db.namespace': 'test' };
    const checkout = start('pg-pool.connect', SpanKind.CLIENT, request, pg);
    start('pg.connect', SpanKind.CLIENT, checkout, pg).end();
    checkout.end();
    const failing = start('pg-pool.connect', SpanKind.CLIENT, request, pg);
    const connect = start('pg.connect', SpanKind.CLIENT, failing, pg);
    for (const span of [connect, failing]) {
      span.setAttribute('error.type', 'ECONNREFUSED');
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'connect ECONNREFUSED 127.0.0.1:1' });
      span.end();
    }
    request.end();
    const [okConnect, failedConnect] = exported('pg.connect');
    const [okCheckout, failedCheckout] = exported('pg-pool.connect');
    expect(faultline(okConnect)).toEqual({ 'faultline.source': 'db', 'faultline.call_role': 'checkout' });
    expect(faultline(okCheckout)).toEqual({ 'faultline.source': 'db', 'faultline.call_role': 'checkout' });
    expect(faultline(failedConnect)).toMatchObject({ 'faultline.class': 'transient' });
    expect(faultline(failedConnect)['faultline.call_role']).toBeUndefined();
    expect(faultline(failedConnect)['faultline.propagated']).toBeUndefined();
    expect(faultline(failedCheckout)).toMatchObject({
      'faultline.class': 'transient',
      'faultline.propagated': true,
    });
    expect(faultline(failedCheckout)['faultline.call_role']).toBeUndefined();
  });

  it('numbers a call without an operation key by withRetry, and a keyed one by its own repeats', () => {
    const previous: Envelope = {
      class: 'transient',
      source: 'sdk',
      code: 'ETIMEDOUT',
      message: 'timed out',
      retryable: true,
      retry_after: null,
      correlation_id: '',
      raw: null,
    };
    const request = start('POST /sync', SpanKind.SERVER);
    runInAttempt({ attempt: 2, maxAttempts: 3, previous }, () => {
      // No URL, statement or RPC method: nothing to compare, so withRetry's count stands.
      start('custom.call', SpanKind.CLIENT, request, { 'peer.service': 'ledger' }).end();
      // A keyed call seen for the first time is attempt 1, whatever withRetry says.
      start('GET', SpanKind.CLIENT, request, {
        'http.request.method': 'GET',
        'url.full': 'http://127.0.0.1:1/fresh',
      }).end();
    });
    request.end();
    expect(faultline(exported('custom.call')[0])).toEqual({
      'faultline.attempt': 2,
      'faultline.previous_class': 'transient',
      'faultline.previous_code': 'ETIMEDOUT',
      'faultline.previous_message': 'timed out',
    });
    expect(faultline(exported('GET')[0])).toEqual({ 'faultline.source': 'http' });
  });

  it('numbers a repeat after a failure whose end was held, even if it was recorded late', () => {
    const request = start('GET /page', SpanKind.SERVER);
    const http = { 'http.request.method': 'GET', 'url.full': 'http://127.0.0.1:1/held' };
    const failing = (span: Span, end?: number): void => {
      span.setAttribute('http.response.status_code', 503);
      span.end(end);
    };
    failing(start('GET', SpanKind.CLIENT, request, http));
    // The second call's response is complete, but its span's end waits for the body (fetch-peek)…
    const held = start('GET', SpanKind.CLIENT, request, http);
    const lastByte = performance.now();
    // …while the application already makes the third call.
    const third = start('GET', SpanKind.CLIENT, request, http);
    failing(held, lastByte);
    failing(third);
    request.end();
    expect(exported('GET').map((s) => s.attributes['faultline.attempt'] ?? 1)).toEqual([1, 2, 3]);
  });

  it('starts counting again after a success, and leaves concurrent identical calls at attempt 1', () => {
    const request = start('GET /page', SpanKind.SERVER);
    const http = { 'http.request.method': 'GET', 'url.full': 'http://127.0.0.1:1/flaky' };
    const call = (status: number): void => {
      const span = start('GET', SpanKind.CLIENT, request, http);
      span.setAttribute('http.response.status_code', status);
      span.end();
    };
    call(503);
    call(503);
    call(200);
    // Two identical calls in flight together: neither repeats the other.
    const a = start('GET', SpanKind.CLIENT, request, http);
    const b = start('GET', SpanKind.CLIENT, request, http);
    for (const span of [a, b]) {
      span.setAttribute('http.response.status_code', 503);
      span.end();
    }
    call(503);
    request.end();
    expect(
      exported('GET').map((s) => [
        s.attributes['faultline.attempt'] ?? 1,
        s.attributes['http.request.resend_count'],
        s.attributes['faultline.previous_code'],
      ]),
    ).toEqual([
      [1, undefined, undefined],
      [2, 1, '503'],
      [3, 2, '503'],
      [1, undefined, undefined],
      [1, undefined, undefined],
      [2, 1, '503'],
    ]);
  });
  it("forgets a finished request's failed calls when its correlation id is its own trace id", () => {
    const failingCall = (parent: Span) => {
      const call = start('GET', SpanKind.CLIENT, parent, {
        'http.request.method': 'GET',
        'url.full': 'http://127.0.0.1:1/pay',
      });
      call.setAttribute('http.response.status_code', 503);
      call.end();
    };
    const root = start('GET /checkout', SpanKind.SERVER);
    failingCall(root);
    expect(state.attempts.size).toBe(1);
    root.end();
    expect(state.attempts.size).toBe(0);
    // A request with a caller shares its trace id with the caller's other attempts: kept.
    const remote = trace.setSpanContext(context.active(), {
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      traceFlags: 1,
      isRemote: true,
    });
    const called = provider.getTracer('fl-h9-test').startSpan('GET /pay', { kind: SpanKind.SERVER }, remote);
    failingCall(called);
    called.end();
    expect(state.attempts.size).toBe(1);
  });

  it('marks the entry service: its root server span and the calls under it, not those of a callee', () => {
    // This process received the request from outside: root server → INTERNAL → client call.
    const root = start('POST /checkout', SpanKind.SERVER);
    const handler = start('handler', SpanKind.INTERNAL, root);
    const call = start('GET', SpanKind.CLIENT, handler, {
      'http.request.method': 'GET',
      'url.full': 'http://a/',
    });
    call.end();
    handler.end();
    root.end();
    // A callee: its server span continues a remote caller's trace, so it is not the entry.
    const remote = trace.setSpanContext(context.active(), {
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      traceFlags: 1,
      isRemote: true,
    });
    const callee = provider
      .getTracer('fl-h9-test')
      .startSpan('POST /reserve', { kind: SpanKind.SERVER }, remote);
    const inner = start('INSERT', SpanKind.CLIENT, callee, { 'db.system.name': 'postgresql' });
    inner.end();
    callee.end();
    const entry = (name: string) => exported(name)[0]?.attributes['faultline.entry'];
    expect(entry('POST /checkout')).toBe(true);
    expect(entry('GET')).toBe(true);
    // INTERNAL spans pass the mark on without carrying it (no exported bytes for them).
    expect(entry('handler')).toBeUndefined();
    expect(entry('POST /reserve')).toBeUndefined();
    expect(entry('INSERT')).toBeUndefined();
  });
});

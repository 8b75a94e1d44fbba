import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './helpers/otlp-receiver.js';
import { type PreloadMode, startService } from './helpers/run-fixture.js';
import { CLIENT, dbClientSpans, envelopeOf, httpClientSpans, SERVER, STATUS_ERROR } from './helpers/spans.js';
import { closedPortUrl, SILENT_FAILURE_BODY, startUpstream, type Upstream } from './helpers/upstream.js';

interface Run {
  mode: Exclude<PreloadMode, 'none'>;
  fixture: 'service.mjs' | 'service.cjs';
  protocol: 'http/protobuf' | 'http/json';
}

// Every entry point with every module system; protobuf (the default) and JSON exports.
const RUNS: Run[] = [
  { mode: 'import', fixture: 'service.mjs', protocol: 'http/protobuf' },
  { mode: 'require', fixture: 'service.mjs', protocol: 'http/json' },
  { mode: 'import', fixture: 'service.cjs', protocol: 'http/json' },
  { mode: 'require', fixture: 'service.cjs', protocol: 'http/protobuf' },
];

describe.concurrent.each(RUNS)('preload --$mode with $fixture exporting $protocol', (run) => {
  let receiver: OtlpReceiver;
  let upstream: Upstream;
  let spans: ReceivedSpan[];
  let result: Record<string, unknown>;
  let exit: { code: number | null; signal: NodeJS.Signals | null };
  const correlationId = `fl-h3-${run.mode}-${run.fixture}-${Date.now()}`;

  beforeAll(async () => {
    [receiver, upstream] = await Promise.all([startOtlpReceiver(), startUpstream()]);
    const service = await startService({
      fixture: run.fixture,
      mode: run.mode,
      env: {
        OTEL_SERVICE_NAME: `fl-h3-${run.mode}`,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: run.protocol,
        UPSTREAM_URL: upstream.url,
        CLOSED_URL: await closedPortUrl(),
      },
    });
    const res = await fetch(`${service.url}/scenario`, { headers: { 'x-correlation-id': correlationId } });
    result = (await res.json()) as Record<string, unknown>;
    exit = await service.stop();
    spans = receiver.spans;
  });

  afterAll(async () => {
    await Promise.all([receiver?.close(), upstream?.close()]);
  });

  it('leaves the application results intact, bodies included', () => {
    expect(result).toMatchObject({
      http503: { status: 503 },
      http429: { status: 429 },
      httpOkFalse: { status: 200, body: SILENT_FAILURE_BODY },
      httpOk: { status: 200, body: '{"ok":true}' },
      fetch404: { status: 404 },
      fetchOkFalse: { status: 200, body: SILENT_FAILURE_BODY },
      fetchClosed: { error: 'ECONNREFUSED' },
      httpClosed: { error: 'ECONNREFUSED' },
      pgOk: 1,
      pgError: '42P01',
      mysqlError: 'ER_NO_SUCH_TABLE',
      redisError: 'WRONGTYPE',
      retried: 200,
      retryCalls: 3,
    });
  });

  it('exports with the requested encoding and keeps the default SIGTERM exit', () => {
    const expected = run.protocol === 'http/json' ? 'application/json' : 'application/x-protobuf';
    expect(receiver.contentTypes.length).toBeGreaterThan(0);
    expect(receiver.contentTypes.every((t) => t.startsWith(expected))).toBe(true);
    expect(exit).toMatchObject({ code: null, signal: 'SIGTERM' });
  });

  it('puts the inbound correlation id on every span of the request, successes included', () => {
    const server = spans.find((s) => s.kind === SERVER && s.attributes['url.path'] === '/scenario');
    expect(server).toBeDefined();
    const ofRequest = spans.filter((s) => s.traceId === server?.traceId);
    expect(ofRequest.length).toBeGreaterThanOrEqual(10);
    for (const span of ofRequest) expect(span.attributes['faultline.correlation_id']).toBe(correlationId);
    const ok = httpClientSpans(spans, '/ok')[0];
    expect(envelopeOf(ok)).toEqual({ source: 'http', correlation_id: correlationId });
    // The request came from outside (no traceparent): this service is its entry, and says so on
    // its server span and its calls.
    expect(server?.attributes['faultline.entry']).toBe(true);
    expect(ok?.attributes['faultline.entry']).toBe(true);
  });

  it('classifies node:http failing statuses with Retry-After', () => {
    const s503 = httpClientSpans(spans, '/status/503')[0];
    expect(envelopeOf(s503)).toMatchObject({
      class: 'transient',
      source: 'http',
      code: '503',
      retryable: true,
    });
    expect(s503?.statusCode).toBe(STATUS_ERROR);
    const s429 = httpClientSpans(spans, '/status/429')[0];
    expect(envelopeOf(s429)).toMatchObject({
      class: 'rate_limit',
      code: '429',
      retryable: true,
      retry_after: 7,
    });
    expect(JSON.parse(String(s429?.attributes['faultline.raw']))).toBeTypeOf('object');
    expect(s429?.attributes['error.type']).toBe('429');
  });

  it('finds silent failures in small JSON bodies for node:http and fetch', () => {
    const okFalse = httpClientSpans(spans, '/ok-false');
    expect(okFalse).toHaveLength(2);
    for (const span of okFalse) {
      expect(span.attributes['http.response.status_code']).toBe(200);
      expect(envelopeOf(span)).toMatchObject({ source: 'http', retryable: false });
      expect(envelopeOf(span).code).toBe('insufficient_funds');
      expect(span.statusCode).toBe(STATUS_ERROR);
    }
  });

  it('classifies fetch statuses and connection errors', () => {
    expect(envelopeOf(httpClientSpans(spans, '/status/404')[0])).toMatchObject({
      code: '404',
      retryable: false,
      source: 'http',
    });
    const refused = httpClientSpans(spans, '/nothing')[0];
    expect(envelopeOf(refused)).toMatchObject({ class: 'transient', code: 'ECONNREFUSED', retryable: true });
  });

  it('classifies a node:http connection error from the error object itself', () => {
    const refused = httpClientSpans(spans, '/refused-http')[0];
    expect(envelopeOf(refused)).toMatchObject({ class: 'transient', code: 'ECONNREFUSED', retryable: true });
    // syscall and port exist only on the Node error, not in what the instrumentation records.
    expect(JSON.parse(String(refused?.attributes['faultline.raw']))).toMatchObject({
      code: 'ECONNREFUSED',
      syscall: 'connect',
      address: '127.0.0.1',
    });
  });

  it('classifies pg, mysql2 and ioredis errors with their own codes', () => {
    const pgFailed = dbClientSpans(spans, 'postgresql').find((s) => s.statusCode === STATUS_ERROR);
    expect(envelopeOf(pgFailed)).toMatchObject({ source: 'db', code: '42P01', retryable: false });
    const pgOk = dbClientSpans(spans, 'postgresql').find((s) =>
      String(s.attributes['db.statement'] ?? s.attributes['db.query.text']).includes('SELECT 1'),
    );
    expect(envelopeOf(pgOk)).toEqual({ source: 'db', correlation_id: correlationId });
    const myFailed = dbClientSpans(spans, 'mysql').find((s) => s.statusCode === STATUS_ERROR);
    expect(envelopeOf(myFailed)).toMatchObject({ source: 'db', retryable: false });
    expect(String(envelopeOf(myFailed).code)).toMatch(/^(ER_NO_SUCH_TABLE|1146|42S02)$/);
    const redisFailed = dbClientSpans(spans, 'redis').find((s) => s.name === 'lpush');
    expect(envelopeOf(redisFailed)).toMatchObject({ source: 'db', code: 'WRONGTYPE', retryable: false });
  });

  // The scenario calls GET /ok-false and GET /status/503 with node:http (both fail), then fetches
  // the same URLs: identical repeats in one request. withRetry then fetches /status/503 twice more
  // (503, 503) and /status/200, a different call.
  it('numbers identical repeats after a failure, withRetry’s included, with the resend count', () => {
    const retried = spans
      .filter((s) => s.attributes['faultline.attempt'] !== undefined)
      .map((s) => ({
        attempt: s.attributes['faultline.attempt'],
        path: new URL(String(s.attributes['url.full'])).pathname,
        resendCount: s.attributes['http.request.resend_count'],
      }))
      .sort((x, y) => Number(x.attempt) - Number(y.attempt) || x.path.localeCompare(y.path));
    expect(retried).toEqual([
      { attempt: 2, path: '/ok-false', resendCount: 1 },
      { attempt: 2, path: '/status/503', resendCount: 1 },
      { attempt: 3, path: '/status/503', resendCount: 2 },
    ]);
    // Attempt 1 carries no attribute (absent means 1): the node:http call.
    expect(httpClientSpans(spans, '/status/503')).toHaveLength(3);
  });

  it('leaves a successful inbound request unclassified and tags every client span with a source', () => {
    const server = spans.find((s) => s.kind === SERVER && s.attributes['url.path'] === '/scenario');
    expect(server?.attributes['faultline.class']).toBeUndefined();
    expect(spans.filter((s) => s.kind === CLIENT && s.attributes['faultline.source'] === undefined)).toEqual(
      [],
    );
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISTRO_NAME_KEY } from '../../src/envelope/attribute-names.js';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './helpers/otlp-receiver.js';
import { type FixtureResult, runFixture } from './helpers/run-fixture.js';
import { CLIENT, SERVER } from './helpers/spans.js';
import { startUpstream, type Upstream } from './helpers/upstream.js';

/**
 * Issue 28: a service that builds its own NodeSDK (getNodeAutoInstrumentations with its own hooks,
 * its own OTLP exporter and sampler) adds Faultline in a few lines (own-sdk.cjs) and gets the rows
 * the preload gives the same calls (own-sdk-calls.cjs under --require): call for call, the same
 * faultline.* attributes as the collector stores them.
 */

const SCOPES = new Set(['http', 'undici', 'pg'].map((n) => `@opentelemetry/instrumentation-${n}`));

interface Run {
  receiver: OtlpReceiver;
  result: FixtureResult;
  correlationId: string;
  table: string;
}

async function run(
  fixture: string,
  mode: 'none' | 'require',
  name: string,
  upstream: Upstream,
): Promise<Run> {
  const receiver = await startOtlpReceiver();
  const correlationId = `fl-i28-${name}-${Date.now()}`;
  const table = `fl_i28_${name}_${process.pid}`;
  const result = await runFixture({
    fixture,
    mode,
    env: {
      UPSTREAM_URL: upstream.url,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: `fl-i28-${name}`,
      // The application's SDK would also set up logs and metrics exporters from the environment.
      OTEL_LOGS_EXPORTER: 'none',
      OTEL_METRICS_EXPORTER: 'none',
      CORRELATION_ID: correlationId,
      FL_TABLE: table,
    },
  });
  return { receiver, result, correlationId, table };
}

/** One comparable line per span of the calls: its scope, what it called, its n-th repeat. */
function byCall(spans: ReceivedSpan[]): Map<string, ReceivedSpan> {
  const out = new Map<string, ReceivedSpan>();
  for (const span of spans) {
    if (!SCOPES.has(span.scope) || (span.kind !== CLIENT && span.kind !== SERVER)) continue;
    const url = String(span.attributes['url.full'] ?? span.attributes['url.path'] ?? '');
    const target = url ? new URL(url, 'http://server').pathname : span.name.split(' ')[0];
    const base = `${span.kind === SERVER ? 'server' : 'client'} ${span.scope.split('-').pop()} ${target}`;
    let n = 1;
    while (out.has(`${base} #${n}`)) n++;
    out.set(`${base} #${n}`, span);
  }
  return out;
}

/** faultline.* as stored, with what differs between two runs by design put back in common. */
function faultlineOf(span: ReceivedSpan, r: Run): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(span.attributes)) {
    if (!key.startsWith('faultline.')) continue;
    if (key === 'faultline.correlation_id' && value === r.correlationId) out[key] = '<request>';
    else if (key === 'faultline.correlation_id' && value === span.traceId) out[key] = '<trace id>';
    // The span id of the call the request came from: a new one each run.
    else if (key === 'faultline.caller_span_id' && /^[0-9a-f]{16}$/.test(String(value)))
      out[key] = '<span id>';
    else out[key] = typeof value === 'string' ? value.replaceAll(r.table, '<table>') : value;
  }
  return out;
}

describe('faultline() inside a NodeSDK the service builds itself', () => {
  let upstream: Upstream;
  let own: Run;
  let preloaded: Run;

  beforeAll(async () => {
    upstream = await startUpstream();
    [own, preloaded] = await Promise.all([
      run('own-sdk.cjs', 'none', 'own', upstream),
      run('own-sdk-calls.cjs', 'require', 'preload', upstream),
    ]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([upstream?.close(), own?.receiver.close(), preloaded?.receiver.close()]);
  });

  it('leaves what the application sees and prints as it is', () => {
    expect(own.result).toMatchObject({ code: 0, stderr: '' });
    expect(own.result.stdout).toBe(preloaded.result.stdout);
    expect(JSON.parse(own.result.stdout)).toMatchObject({
      http429: { status: 429, retryAfter: '7' },
      fetch503: ['503 {"error":"status 503"}', '503 {"error":"status 503"}'],
      pg: '23505',
    });
  });

  it('exports, call for call, the faultline.* attributes the preload exports', () => {
    const ours = byCall(own.receiver.spans);
    const theirs = byCall(preloaded.receiver.spans);
    expect([...ours.keys()].sort()).toEqual([...theirs.keys()].sort());
    for (const [call, span] of theirs) {
      const mine = ours.get(call);
      expect(mine && faultlineOf(mine, own), call).toEqual(faultlineOf(span, preloaded));
    }
  });

  it('classifies the body peek, Retry-After, attempts, misrouted retries and the driver error', () => {
    const calls = byCall(own.receiver.spans);
    const envelope = (call: string) => faultlineOf(calls.get(call) as ReceivedSpan, own);
    expect(envelope('client http /status/429 #1')).toMatchObject({
      'faultline.class': 'rate_limit',
      'faultline.code': '429',
      'faultline.retryable': true,
      'faultline.retry_after': 7,
      'faultline.correlation_id': '<request>',
    });
    expect(envelope('client undici /status/503 #2')).toMatchObject({
      'faultline.class': 'transient',
      'faultline.message': 'status 503',
      'faultline.attempt': 2,
    });
    expect(envelope('client http /status/400 #2')).toMatchObject({ 'faultline.misrouted_retry': true });
    expect(envelope('client undici /ok-false #1')).toMatchObject({ 'faultline.code': 'insufficient_funds' });
    const pg = [...calls.values()].find((s) => s.attributes['faultline.code'] === '23505');
    expect(pg && faultlineOf(pg, own)).toMatchObject({
      'faultline.class': 'validation',
      'faultline.source': 'db',
      'faultline.message': 'duplicate key value violates unique constraint "<table>_email_key"',
    });
  });

  it("keeps the application's own SDK: its hooks, its resource, its extra instrumentations", () => {
    const spans = own.receiver.spans;
    const calls = byCall(spans);
    expect(calls.get('client http /status/429 #1')?.attributes['team.http_hook']).toBe(true);
    const pg = [...calls.values()].find((s) => s.attributes['faultline.code'] === '23505');
    expect(pg?.attributes['team.pg_hook']).toBe(true);
    for (const span of spans) {
      expect(span.resource['service.name']).toBe('fl-i28-own');
      expect(span.resource[DISTRO_NAME_KEY]).toBeUndefined();
    }
    // Instrumentations Faultline does not hook stay the application's (dns, net).
    expect(spans.some((s) => s.scope === '@opentelemetry/instrumentation-dns')).toBe(true);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OtlpReceiver, startOtlpReceiver } from './helpers/otlp-receiver.js';
import { startService } from './helpers/run-fixture.js';
import { CLIENT, httpClientSpans, SERVER } from './helpers/spans.js';
import { closedPortUrl, startUpstream, type Upstream } from './helpers/upstream.js';

/**
 * What travels: the preload leaves off the wire what the Faultline collector derives from the span
 * (collector/test/classify/preload-derived.test.ts proves the stored rows unchanged), and sends it
 * all with FAULTLINE_EXPORT_DERIVED=on. The same requests both ways: the inbound x-correlation-id
 * request, one with none (its correlation id is its trace id), and two the service fails: `/leaf`
 * answers 502 after its upstream answered 500, an unknown path answers 404.
 */
describe.each([
  ['lean (default)', {}],
  ['FAULTLINE_EXPORT_DERIVED=on', { FAULTLINE_EXPORT_DERIVED: 'on' }],
])('what the preload exports, %s', (label, extraEnv) => {
  const full = label !== 'lean (default)';
  const correlationId = `fl-lean-${process.pid}-${full ? 'full' : 'lean'}`;
  let receiver: OtlpReceiver;
  let upstream: Upstream;

  beforeAll(async () => {
    [receiver, upstream] = await Promise.all([startOtlpReceiver(), startUpstream()]);
    const service = await startService({
      fixture: 'service.mjs',
      mode: 'import',
      env: {
        OTEL_SERVICE_NAME: 'fl-lean',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        UPSTREAM_URL: upstream.url,
        CLOSED_URL: await closedPortUrl(),
        ...extraEnv,
      },
    });
    await (await fetch(`${service.url}/scenario`, { headers: { 'x-correlation-id': correlationId } })).text();
    await (await fetch(`${service.url}/scenario`)).text();
    await (await fetch(`${service.url}/leaf`)).text();
    await (await fetch(`${service.url}/no-such-route`)).text();
    await service.stop();
  }, 60_000);

  afterAll(async () => {
    await Promise.all([receiver?.close(), upstream?.close()]);
  });

  it('marks its resource as the Faultline distro', () => {
    expect(receiver.spans.length).toBeGreaterThan(20);
    for (const span of receiver.spans) expect(span.resource['telemetry.distro.name']).toBe('faultline');
  });

  it('sends a correlation id only when it is not the trace id', () => {
    const roots = receiver.spans.filter((s) => s.kind === SERVER && s.parentSpanId === '');
    expect(roots).toHaveLength(4);
    const headerTrace = roots.find(
      (s) => s.wireAttributes['faultline.correlation_id'] === correlationId,
    )?.traceId;
    expect(headerTrace).toBeDefined();
    for (const span of receiver.spans) {
      const sent = span.wireAttributes['faultline.correlation_id'];
      if (span.traceId === headerTrace) expect(sent).toBe(correlationId);
      else expect(sent).toBe(full ? span.traceId : undefined);
      // Stored, every span has it.
      expect(span.attributes['faultline.correlation_id']).toBe(
        span.traceId === headerTrace ? correlationId : span.traceId,
      );
    }
  });

  it("leaves a success's source, a root's entry mark and a failure's error.type and status text to the collector", () => {
    const ok = httpClientSpans(receiver.spans, '/ok');
    expect(ok).toHaveLength(2);
    for (const span of ok) {
      expect(span.wireAttributes['faultline.source']).toBe(full ? 'http' : undefined);
      expect(span.attributes['faultline.source']).toBe('http');
      // Calls under the entry keep their mark: it needs the parent to derive.
      expect(span.wireAttributes['faultline.entry']).toBe(true);
    }
    for (const root of receiver.spans.filter((s) => s.kind === SERVER && s.parentSpanId === '')) {
      expect(root.wireAttributes['faultline.entry']).toBe(full ? true : undefined);
      expect(root.attributes['faultline.entry']).toBe(true);
    }
    // A 200 whose body says it failed: the instrumentation sets neither error.type nor a status.
    const silent = httpClientSpans(receiver.spans, '/ok-false');
    expect(silent.length).toBeGreaterThanOrEqual(2);
    for (const span of silent) {
      expect(span.wireAttributes['faultline.code']).toBe('insufficient_funds');
      expect(span.wireAttributes['error.type']).toBe(full ? 'insufficient_funds' : undefined);
      expect(span.attributes['error.type']).toBe('insufficient_funds');
      expect(span.statusMessage).toBe(full ? 'Balance 42.10 below requested 150.00' : '');
    }
    // Stored, every failure has an error.type: the instrumentation's own, else the envelope's code.
    const failures = receiver.spans.filter((s) => s.attributes['faultline.class'] !== undefined);
    expect(failures.length).toBeGreaterThan(10);
    for (const span of failures) expect(span.attributes['error.type']).toBeTruthy();
    // Stored, every client call has its source, failures and successes alike.
    const clients = receiver.spans.filter((s) => s.kind === CLIENT);
    expect(clients.every((s) => s.attributes['faultline.source'] !== undefined)).toBe(true);
  });

  it('leaves the envelope of a server span that failed by its status alone to the collector', () => {
    const server = (path: string) => {
      const found = receiver.spans.filter((s) => s.kind === SERVER && s.attributes['url.path'] === path);
      expect(found).toHaveLength(1);
      return found[0] as (typeof found)[number];
    };
    const envelopeKeys = [
      'faultline.class',
      'faultline.code',
      'faultline.message',
      'faultline.retryable',
      'faultline.raw',
    ];
    const cases = [
      // The leaf's own upstream call failed first: its 502 is that failure's echo.
      {
        span: server('/leaf'),
        stored: {
          'faultline.class': 'transient',
          'faultline.code': '502',
          'faultline.message': 'HTTP 502 Bad Gateway',
          'faultline.retryable': true,
          'faultline.raw': '{"status":502,"headers":{},"body":null}',
          'faultline.source': 'http',
          'error.type': '502',
        },
        propagated: true,
      },
      {
        span: server('/no-such-route'),
        stored: {
          'faultline.class': 'permanent',
          'faultline.code': '404',
          'faultline.message': 'HTTP 404 Not Found',
          'faultline.retryable': false,
          'faultline.raw': '{"status":404,"headers":{},"body":null}',
          'faultline.source': 'http',
          'error.type': '404',
        },
        propagated: undefined,
      },
    ];
    for (const { span, stored, propagated } of cases) {
      // Both ways the span says it failed: status ERROR, and whether a local failure caused it.
      expect(span.statusCode).toBe(2);
      expect(span.wireAttributes['faultline.propagated']).toBe(propagated);
      for (const key of envelopeKeys) {
        expect(span.wireAttributes[key]).toBe(full ? stored[key as keyof typeof stored] : undefined);
      }
      for (const [key, value] of Object.entries(stored)) expect(span.attributes[key]).toBe(value);
    }
  });
});

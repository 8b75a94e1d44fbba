import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

const MIN = 60_000;

/**
 * The ground truth the Failures page must show for `?range=1h`: service `cart` fails first-hand
 * (CLIENT spans under a SERVER span that carries no envelope) in three groups.
 * - api.pay.example validation 422: only inside the range → new.
 * - postgresql cart transient 40P01: once 3 days ago (version 1.0.0), again inside the range → regressed.
 * - api.pay.example rate_limit 429: 90 minutes ago (the previous hour) and inside the range → ongoing,
 *   trend +1 against the previous range.
 */
export const FAILURE_GROUP_TRUTH = [
  {
    state: 'new',
    dependency: 'api.pay.example',
    cls: 'validation',
    code: '422',
    failures: 2,
    previous: 0,
    versions: ['2.0.0'],
  },
  {
    state: 'regressed',
    dependency: 'postgresql cart',
    cls: 'transient',
    code: '40P01',
    failures: 3,
    previous: 0,
    versions: ['2.0.0'],
  },
  {
    state: 'ongoing',
    dependency: 'api.pay.example',
    cls: 'rate_limit',
    code: '429',
    failures: 2,
    previous: 1,
    versions: ['2.0.0'],
  },
] as const;

type Call = { agoMin: number; version: string; cls: string; code: string; db: boolean };

const CALLS: Call[] = [
  { agoMin: 5, version: '2.0.0', cls: 'validation', code: '422', db: false },
  { agoMin: 6, version: '2.0.0', cls: 'validation', code: '422', db: false },
  { agoMin: 3 * 24 * 60, version: '1.0.0', cls: 'transient', code: '40P01', db: true },
  { agoMin: 7, version: '2.0.0', cls: 'transient', code: '40P01', db: true },
  { agoMin: 8, version: '2.0.0', cls: 'transient', code: '40P01', db: true },
  { agoMin: 9, version: '2.0.0', cls: 'transient', code: '40P01', db: true },
  { agoMin: 90, version: '2.0.0', cls: 'rate_limit', code: '429', db: false },
  { agoMin: 10, version: '2.0.0', cls: 'rate_limit', code: '429', db: false },
  { agoMin: 11, version: '2.0.0', cls: 'rate_limit', code: '429', db: false },
];

export async function sendFailureGroups(otlpBaseUrl: string): Promise<void> {
  const providers = new Map<string, BasicTracerProvider>();
  const providerFor = (version: string): BasicTracerProvider => {
    let p = providers.get(version);
    if (!p) {
      p = new BasicTracerProvider({
        resource: resourceFromAttributes({ 'service.name': 'cart', 'service.version': version }),
        spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${otlpBaseUrl}/v1/traces` }))],
      });
      providers.set(version, p);
    }
    return p;
  };
  const now = Date.now();
  for (const [i, c] of CALLS.entries()) {
    const tracer = providerFor(c.version).getTracer('@faultline/failure-groups-e2e');
    const start = new Date(now - c.agoMin * MIN);
    const end = new Date(now - c.agoMin * MIN + 20);
    const correlationId = `groups-${c.code}-${i}`;
    const server = tracer.startSpan('POST /cart', {
      kind: SpanKind.SERVER,
      startTime: start,
      attributes: { 'faultline.correlation_id': correlationId, 'faultline.entry': true },
    });
    const span = tracer.startSpan(
      c.db ? 'UPDATE' : 'POST',
      {
        kind: SpanKind.CLIENT,
        startTime: new Date(start.getTime() + 1),
        attributes: {
          ...(c.db
            ? { 'db.system.name': 'postgresql', 'db.namespace': 'cart' }
            : { 'server.address': 'api.pay.example', 'url.full': 'https://api.pay.example/charge' }),
          'faultline.correlation_id': correlationId,
          'faultline.source': c.db ? 'db' : 'http',
          'faultline.class': c.cls,
          'faultline.code': c.code,
          'faultline.retryable': String(c.cls !== 'validation'),
        },
      },
      trace.setSpan(context.active(), server),
    );
    span.setStatus({ code: SpanStatusCode.ERROR });
    span.end(new Date(end.getTime() - 1));
    server.end(end);
  }
  for (const p of providers.values()) {
    await p.forceFlush();
    await p.shutdown();
  }
}

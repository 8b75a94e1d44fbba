import { context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

/** One service's tracer, exporting each span as it ends to the collector. */
function serviceTracer(otlpBaseUrl: string, service: string, resource: Record<string, string> = {}) {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': service, ...resource }),
    spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${otlpBaseUrl}/v1/traces` }))],
  });
  return { provider, tracer: provider.getTracer('@faultline/critical-e2e') };
}

/**
 * Secrets planted where services really leak them. None may reach the page: each is found by its
 * PLANTED prefix in everything the browser received.
 */
export const PLANTED = {
  bearer: 'Bearer sk_live_PLANTEDbearer0123456789abcdef',
  url: 'https://orders.internal/orders?api_key=PLANTEDapikey0123456789&cart=42',
  statement: "UPDATE users SET password='PLANTEDpw-hunter2' WHERE id = 7",
  exception: 'card service refused login password=PLANTEDpw-event for merchant 42',
  resourceUrl: 'https://svc:PLANTEDresourcepw@vault.internal/v1',
} as const;

/** A value longer than the page shows: the end is behind "full value". */
export const LONG_BODY = `${'x'.repeat(2990)}TAILMARK`;

/**
 * The spans as [name, service, start ms, end ms, parent name], in the tree's display order
 * (depth first, siblings by start). Times are chosen so that no child ends exactly where the next
 * critical one starts: the path below holds by Jaeger's rule and by ours alike.
 */
export const CRITICAL_SPANS = [
  ['GET /checkout', 'gateway', 0, 100, null],
  ['authorize', 'gateway', 2, 12, 'GET /checkout'],
  ['POST orders', 'gateway', 15, 80, 'GET /checkout'],
  ['POST /orders', 'orders', 18, 78, 'POST orders'],
  ['UPDATE users', 'orders', 20, 30, 'POST /orders'],
  ['INSERT audit_log', 'orders', 22, 31, 'POST /orders'],
  ['POST payments', 'orders', 32, 75, 'POST /orders'],
  ['POST /charge', 'payments', 34, 74, 'POST payments'],
  ['stripe.charges.create', 'payments', 36, 70, 'POST /charge'],
  ['GET cache', 'gateway', 20, 60, 'GET /checkout'],
  ['publish audit', 'gateway', 90, 130, 'GET /checkout'],
] as const;

/**
 * The critical path, worked out by hand from the times above. From the root's end (100) back:
 * publish audit ends last (130, counted until the root ends at 100); before it starts (90), POST
 * orders ends (80); inside it POST /orders → POST payments (ends 75, last) → POST /charge →
 * stripe.charges.create; before POST payments starts (32), INSERT audit_log ends (31) — UPDATE
 * users ends at 30, after INSERT audit_log started (22), so it ran alongside and is not on the
 * path; back at the root, before POST orders starts (15), authorize ends (12). GET cache (20–60)
 * ran alongside POST orders: not on the path.
 */
export const CRITICAL_NAMES = [
  'GET /checkout',
  'authorize',
  'POST orders',
  'POST /orders',
  'INSERT audit_log',
  'POST payments',
  'POST /charge',
  'stripe.charges.create',
  'publish audit',
] as const;

/**
 * A checkout across three services, sent through the real exporter: gateway → orders → payments,
 * where the card call (stripe.charges.create) fails first-hand and POST /charge and POST payments
 * echo it. Secrets are planted in span attributes (authorization header, a URL's api_key, a SQL
 * statement's password), in an exception event and in a resource attribute.
 */
export async function sendCriticalRequest(otlpBaseUrl: string, correlationId: string): Promise<void> {
  const gateway = serviceTracer(otlpBaseUrl, 'gateway');
  const orders = serviceTracer(otlpBaseUrl, 'orders');
  const payments = serviceTracer(otlpBaseUrl, 'payments', {
    'service.version': '2.4.1',
    'deployment.environment.name': 'e2e',
    'payments.vault.url': PLANTED.resourceUrl,
  });
  const tracers = { gateway, orders, payments };
  const t0 = Date.now() - 2000;
  const at = (ms: number) => new Date(t0 + ms);
  const base = { 'faultline.correlation_id': correlationId };
  const failure = (cls: string, source: string, code: string, message: string) => ({
    ...base,
    'faultline.class': cls,
    'faultline.source': source,
    'faultline.code': code,
    'faultline.message': message,
    'faultline.retryable': true,
    'faultline.retry_after': 2,
  });
  const kinds: Record<string, SpanKind> = {
    'GET /checkout': SpanKind.SERVER,
    authorize: SpanKind.INTERNAL,
    'POST orders': SpanKind.CLIENT,
    'POST /orders': SpanKind.SERVER,
    'UPDATE users': SpanKind.CLIENT,
    'INSERT audit_log': SpanKind.CLIENT,
    'POST payments': SpanKind.CLIENT,
    'POST /charge': SpanKind.SERVER,
    'stripe.charges.create': SpanKind.CLIENT,
    'GET cache': SpanKind.CLIENT,
    'publish audit': SpanKind.PRODUCER,
  };
  const extra: Record<string, Record<string, string | number | boolean>> = {
    'GET /checkout': { 'faultline.entry': true },
    'POST orders': {
      'faultline.source': 'http',
      'http.request.method': 'POST',
      'http.request.header.authorization': PLANTED.bearer,
      'url.full': PLANTED.url,
      'http.request.body': LONG_BODY,
    },
    'UPDATE users': {
      'faultline.source': 'db',
      'db.system.name': 'postgresql',
      'db.statement': PLANTED.statement,
    },
    'INSERT audit_log': { 'faultline.source': 'db', 'db.system.name': 'postgresql' },
    'POST payments': failure('transient', 'http', '502', 'bad gateway'),
    'POST /charge': failure('transient', 'sdk', 'api_error', 'upstream unavailable'),
    'stripe.charges.create': {
      ...failure('transient', 'sdk', 'api_error', 'upstream unavailable'),
      'faultline.raw': JSON.stringify({ type: 'api_error', request_id: 'req_e2e_1' }),
    },
    'GET cache': { 'faultline.source': 'http' },
  };
  const spans = new Map<string, Span>();
  for (const [name, service, start, , parent] of CRITICAL_SPANS) {
    const ctx = parent ? trace.setSpan(context.active(), spans.get(parent)!) : context.active();
    spans.set(
      name,
      tracers[service].tracer.startSpan(
        name,
        { kind: kinds[name], startTime: at(start), attributes: { ...base, ...extra[name] } },
        ctx,
      ),
    );
  }
  const card = spans.get('stripe.charges.create')!;
  const err = new Error(PLANTED.exception);
  err.name = 'StripeAPIError';
  card.recordException(err, at(60));
  card.addEvent('retry.scheduled', { 'retry.delay_ms': 2000, 'retry.attempt': 2 }, at(65));
  const failed = new Set(['stripe.charges.create', 'POST /charge', 'POST payments']);
  // Children end before parents, as real spans do; the order they arrive in does not matter.
  for (const [name, , , end] of [...CRITICAL_SPANS].sort((a, b) => a[3] - b[3])) {
    const span = spans.get(name)!;
    if (failed.has(name)) span.setStatus({ code: SpanStatusCode.ERROR, message: 'upstream unavailable' });
    span.end(at(end));
  }
  for (const s of Object.values(tracers)) {
    await s.provider.forceFlush();
    await s.provider.shutdown();
  }
}

import { context, type SpanContext, SpanKind, SpanStatusCode, TraceFlags, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

/** One service's tracer, exporting each span as it ends to the collector. */
function serviceTracer(otlpBaseUrl: string, service: string) {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': service }),
    spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${otlpBaseUrl}/v1/traces` }))],
  });
  return { provider, tracer: provider.getTracer('@faultline/tree-e2e') };
}

/** The spans' names and aria-levels in the tree's display order. */
export const TREE_ORDER = [
  { name: 'POST /orders', level: 1 },
  { name: 'POST ledger', level: 2 },
  { name: 'POST /entries', level: 3 },
  { name: 'INSERT entries', level: 4 },
  { name: 'GET cache', level: 2 },
  { name: 'reconcile', level: 1 },
] as const;

/**
 * A known request across two services, sent as they would send it: `shop` serves POST /orders and
 * calls `ledger` (POST ledger → ledger's POST /entries, whose INSERT fails with a unique violation:
 * the first-hand failure; the three spans above it echo it), then, later, GET cache (a success
 * that starts before the ledger's server span, so a flat list by start time would put it above
 * its cousin). `reconcile` belongs to a ledger span that never arrives: an orphan.
 */
export async function sendRequestTree(otlpBaseUrl: string, correlationId: string): Promise<void> {
  const shop = serviceTracer(otlpBaseUrl, 'shop');
  const ledger = serviceTracer(otlpBaseUrl, 'ledger');
  const t0 = Date.now() - 2000;
  const at = (ms: number) => new Date(t0 + ms);
  const base = { 'faultline.correlation_id': correlationId };
  const failure = (code: string, source: string, message: string) => ({
    ...base,
    'faultline.class': 'validation',
    'faultline.source': source,
    'faultline.code': code,
    'faultline.message': message,
    'faultline.retryable': false,
  });
  const under = (parent: { spanContext(): SpanContext }) => trace.setSpan(context.active(), parent as never);

  const root = shop.tracer.startSpan('POST /orders', {
    kind: SpanKind.SERVER,
    startTime: at(0),
    attributes: { ...base, 'faultline.entry': true },
  });
  const call = shop.tracer.startSpan(
    'POST ledger',
    { kind: SpanKind.CLIENT, startTime: at(10), attributes: failure('409', 'http', 'conflict') },
    under(root),
  );
  const cache = shop.tracer.startSpan(
    'GET cache',
    { kind: SpanKind.CLIENT, startTime: at(15), attributes: { ...base, 'faultline.source': 'http' } },
    under(root),
  );
  const entries = ledger.tracer.startSpan(
    'POST /entries',
    { kind: SpanKind.SERVER, startTime: at(20), attributes: failure('23505', 'db', 'duplicate key') },
    under(call),
  );
  const insert = ledger.tracer.startSpan(
    'INSERT entries',
    {
      kind: SpanKind.CLIENT,
      startTime: at(25),
      attributes: { ...failure('23505', 'db', 'duplicate key'), 'db.system.name': 'postgresql' },
    },
    under(entries),
  );
  // A parent in the same trace that is never sent (its service crashed, or it is not instrumented).
  const lost: SpanContext = {
    traceId: root.spanContext().traceId,
    spanId: 'feedfacefeedface',
    traceFlags: TraceFlags.SAMPLED,
  };
  const orphan = ledger.tracer.startSpan(
    'reconcile',
    { kind: SpanKind.INTERNAL, startTime: at(5), attributes: base },
    trace.setSpanContext(context.active(), lost),
  );
  for (const [span, end, failed] of [
    [insert, 30, true],
    [entries, 35, true],
    [call, 40, true],
    [cache, 50, false],
    [orphan, 60, false],
    [root, 70, true],
  ] as const) {
    if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end(at(end));
  }
  for (const s of [shop, ledger]) {
    await s.provider.forceFlush();
    await s.provider.shutdown();
  }
}

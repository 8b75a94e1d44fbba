import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';

/** One outbound call at a chosen time, from a service at a chosen version, failed or not. */
export interface TimedCall {
  service: string;
  version?: string;
  atMs: number;
  spanName: string;
  /** The callee's attributes (server.address, url.full, db.system.name …). */
  attrs: Record<string, string | number>;
  source: string;
  failure?: { class: string; code: string; message: string };
}

/**
 * Sends CLIENT spans as an instrumented service does (the real OTel SDK and OTLP/HTTP protobuf
 * exporter), each its own trace, at the times given: the scenarios of the time tests place
 * deploys, failures and silences in the past. One provider per service and version, whose resource
 * carries `service.version`.
 */
export async function sendTimedCalls(otlpBaseUrl: string, calls: readonly TimedCall[]): Promise<void> {
  const providers = new Map<string, BasicTracerProvider>();
  for (const [i, c] of calls.entries()) {
    const key = `${c.service}\u0000${c.version ?? ''}`;
    let provider = providers.get(key);
    if (!provider) {
      provider = new BasicTracerProvider({
        resource: resourceFromAttributes({
          'service.name': c.service,
          ...(c.version ? { 'service.version': c.version } : {}),
        }),
        spanProcessors: [
          new BatchSpanProcessor(new OTLPTraceExporter({ url: `${otlpBaseUrl}/v1/traces` }), {
            maxQueueSize: 10_000,
          }),
        ],
      });
      providers.set(key, provider);
    }
    const span = provider.getTracer('@faultline/dashboard-e2e').startSpan(c.spanName, {
      kind: SpanKind.CLIENT,
      startTime: new Date(c.atMs),
      attributes: {
        ...c.attrs,
        'faultline.source': c.source,
        'faultline.correlation_id': `${c.service}-${i}`,
        ...(c.failure
          ? {
              'faultline.class': c.failure.class,
              'faultline.code': c.failure.code,
              'faultline.message': c.failure.message,
              'faultline.retryable': String(c.failure.class !== 'validation'),
            }
          : {}),
      },
    });
    if (c.failure) span.setStatus({ code: SpanStatusCode.ERROR, message: c.failure.code });
    span.end(new Date(c.atMs + 20));
  }
  for (const p of providers.values()) {
    await p.forceFlush();
    await p.shutdown();
  }
}

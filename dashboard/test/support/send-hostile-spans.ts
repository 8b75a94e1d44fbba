import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

/** What a hostile span carries in each field a page shows. */
export interface HostileRequest {
  service: string;
  correlationId: string;
  spanName: string;
  code: string;
  message: string;
  raw?: string;
}

/**
 * Sends one request as a hostile service would through the real OTel SDK and OTLP/HTTP exporter:
 * the entry SERVER span (marked as the preload marks it) and one failed CLIENT call under it, every
 * text field attacker-chosen.
 */
export async function sendHostileRequest(otlpBaseUrl: string, r: HostileRequest): Promise<void> {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': r.service }),
    spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${otlpBaseUrl}/v1/traces` }))],
  });
  const tracer = provider.getTracer('@faultline/hostile-e2e');
  const base = { 'faultline.correlation_id': r.correlationId, 'faultline.entry': true };
  await tracer.startActiveSpan(r.spanName, { kind: SpanKind.SERVER, attributes: base }, async (server) => {
    const call = tracer.startSpan(r.spanName, {
      kind: SpanKind.CLIENT,
      attributes: {
        ...base,
        'faultline.class': 'permanent',
        'faultline.source': 'http',
        'faultline.code': r.code,
        'faultline.message': r.message,
        'faultline.retryable': false,
        ...(r.raw === undefined ? {} : { 'faultline.raw': r.raw }),
      },
    });
    call.setStatus({ code: SpanStatusCode.ERROR, message: r.message });
    call.end();
    server.setStatus({ code: SpanStatusCode.ERROR, message: r.code });
    server.end();
  });
  await provider.forceFlush();
  await provider.shutdown();
}

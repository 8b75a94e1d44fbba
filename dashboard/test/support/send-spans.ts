import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

export interface FailedCall {
  service: string;
  class: string;
  source: string;
  code: string;
  correlationId: string;
}

/**
 * Sends classified failed CLIENT spans the way an instrumented service does: the real OTel SDK and
 * OTLP/HTTP protobuf exporter, to the collector under test. Resolves once the collector accepted them.
 */
export async function sendFailedCalls(otlpBaseUrl: string, calls: FailedCall[]): Promise<void> {
  for (const service of new Set(calls.map((c) => c.service))) {
    const group = calls.filter((c) => c.service === service);
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': service }),
      spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${otlpBaseUrl}/v1/traces` }))],
    });
    const tracer = provider.getTracer('@faultline/dashboard-e2e');
    for (const call of group) {
      const span = tracer.startSpan(`GET /e2e/${call.code}`, {
        kind: SpanKind.CLIENT,
        attributes: {
          'faultline.class': call.class,
          'faultline.source': call.source,
          'faultline.code': call.code,
          'faultline.message': `e2e ${call.class} from ${call.source}`,
          'faultline.retryable': false,
          'faultline.correlation_id': call.correlationId,
        },
      });
      span.setStatus({ code: SpanStatusCode.ERROR, message: call.code });
      span.end();
    }
    await provider.forceFlush();
    await provider.shutdown();
  }
}

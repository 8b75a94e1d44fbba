import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { PreloadConfig } from './types.js';

/**
 * The real OTLP/HTTP exporter, protobuf by default, JSON when OTEL_EXPORTER_OTLP_PROTOCOL asks.
 * `timeoutMillis` also bounds the exporter's retries (their timers are not unref'd), which is why
 * the exit flush uses a second instance with a short one: one attempt, then the process may end.
 */
export function createExporter(config: PreloadConfig, timeoutMillis?: number): SpanExporter {
  const options = {
    url: config.tracesUrl,
    headers: config.headers,
    ...(timeoutMillis ? { timeoutMillis } : {}),
  };
  return config.protocol === 'http/json' ? new JsonExporter(options) : new ProtoExporter(options);
}

import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { PreloadConfig } from './types.js';

/** The real OTLP/HTTP exporter, protobuf by default, JSON when OTEL_EXPORTER_OTLP_PROTOCOL asks. */
export function createExporter(config: PreloadConfig): SpanExporter {
  const options = { url: config.tracesUrl, headers: config.headers };
  return config.protocol === 'http/json' ? new JsonExporter(options) : new ProtoExporter(options);
}

import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { PreloadConfig } from './types.js';
import { unrefExportRetries } from './unref-retries.js';

/**
 * The real OTLP/HTTP exporter, protobuf by default, JSON when OTEL_EXPORTER_OTLP_PROTOCOL asks,
 * with its retry waits unref'd so a down collector never holds a finished process. The exit flush
 * uses a second instance with a short `timeoutMillis`: one attempt, then the process may end.
 */
export function createExporter(config: PreloadConfig, timeoutMillis?: number): SpanExporter {
  const options = {
    url: config.tracesUrl,
    headers: config.headers,
    ...(timeoutMillis ? { timeoutMillis } : {}),
  };
  const exporter = config.protocol === 'http/json' ? new JsonExporter(options) : new ProtoExporter(options);
  unrefExportRetries(exporter);
  return exporter;
}

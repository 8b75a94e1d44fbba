import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { ExportSettings } from './types.js';
import { unrefExportRetries } from './unref-retries.js';

/**
 * The real OTLP/HTTP exporter, protobuf by default, JSON when OTEL_EXPORTER_OTLP_PROTOCOL asks,
 * with its retry waits unref'd so a down collector never holds a finished process. It reads its
 * own OTEL_EXPORTER_OTLP_* variables (endpoints, both header variables, timeout, certificates);
 * only what options set (or the fallback for an invalid endpoint) is passed. The exit flush uses a
 * second instance with a short `timeoutMillis`: one attempt, then the process may end.
 */
export function createExporter(settings: ExportSettings, timeoutMillis?: number): SpanExporter {
  const options = {
    ...(settings.url ? { url: settings.url } : {}),
    ...(settings.headers ? { headers: settings.headers } : {}),
    ...(timeoutMillis ? { timeoutMillis } : {}),
  };
  const exporter = settings.protocol === 'http/json' ? new JsonExporter(options) : new ProtoExporter(options);
  unrefExportRetries(exporter);
  return exporter;
}

import { diag } from '@opentelemetry/api';
import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import { OTLPLogExporter as JsonExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as ProtoExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import type { LogRecordExporter, ReadableLogRecord } from '@opentelemetry/sdk-logs';
import type { LogSettings } from './log-config.js';
import { unrefExportRetries } from './unref-retries.js';

/**
 * The OTLP/HTTP logs exporter, protobuf or JSON, its retry waits unref'd (as the spans' exporter's:
 * a down collector never holds a finished process). It reads its own OTEL_EXPORTER_OTLP_LOGS_* /
 * OTEL_EXPORTER_OTLP_* variables; settings pass only what log-config.ts resolved. The exit flush
 * uses a second one with a short timeout.
 */
export function createLogExporter(settings: LogSettings, timeoutMillis?: number): LogRecordExporter {
  const options = {
    ...(settings.url ? { url: settings.url } : {}),
    ...(settings.headers ? { headers: settings.headers } : {}),
    ...(timeoutMillis ? { timeoutMillis } : {}),
  };
  const exporter = settings.protocol === 'http/json' ? new JsonExporter(options) : new ProtoExporter(options);
  unrefExportRetries(exporter);
  return exporter;
}

/**
 * What the batch processor exports through. It hands each batch to the OTLP exporter and reports
 * it done at once: the SDK's BatchLogRecordProcessor arms a referenced timeout timer around every
 * export it waits for (30 s by default), which would keep a finished process alive while an export
 * to a down collector is retried. The request itself still holds the process while it is on the
 * wire, and forceFlush (the exit flush) waits for every export in flight. A failed export is
 * reported through `diag`. While `exiting`, exports take the quick exporter (one attempt).
 */
export class LogExportRoute implements LogRecordExporter {
  exiting = false;

  constructor(
    private readonly exporter: LogRecordExporter,
    private readonly exitExporter: LogRecordExporter,
  ) {}

  export(records: ReadableLogRecord[], done: (result: ExportResult) => void): void {
    (this.exiting ? this.exitExporter : this.exporter).export(records, (result) => {
      if (result.code !== ExportResultCode.SUCCESS) {
        diag.warn('faultline: exporting logged errors failed', result.error);
      }
    });
    done({ code: ExportResultCode.SUCCESS });
  }

  async forceFlush(): Promise<void> {
    await Promise.all([this.exporter.forceFlush?.(), this.exitExporter.forceFlush?.()]);
  }

  async shutdown(): Promise<void> {
    await Promise.all([this.exporter.shutdown(), this.exitExporter.shutdown()]);
  }
}

import { diag } from '@opentelemetry/api';
import { logs } from '@opentelemetry/api-logs';
import type { Resource } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { FailureLoggerProvider } from '../pipeline/failure-logger.js';
import type { LogSettings } from './log-config.js';
import { createLogExporter, LogExportRoute } from './log-exporter.js';

/** As the spans' exit flush (start.ts): below the exporter's first retry backoff (~1 s). */
const EXIT_EXPORT_TIMEOUT_MS = 500;

/** The logged errors' way out of the process. */
export interface LogExport {
  /** Failure records logged since the last exit flush: a beforeExit hook flushes only then. */
  hasUnflushed(): boolean;
  /** Exports the records queued so far; resolves whether or not that worked. */
  flushForExit(): Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * The preload's LoggerProvider, registered as the global one behind FailureLoggerProvider (which
 * lets only failure records through, each with its envelope), exporting over OTLP/HTTP through the
 * SDK's BatchLogRecordProcessor (1 s batches, a bounded queue, exports under `suppressTracing`).
 * Undefined when OTEL_LOGS_EXPORTER turns the logs off, or when the application registered a
 * LoggerProvider of its own first (its logs stay its own).
 */
export function startLogExport(settings: LogSettings, resource: Resource): LogExport | undefined {
  if (!settings.enabled) return undefined;
  const route = new LogExportRoute(
    createLogExporter(settings),
    createLogExporter(settings, EXIT_EXPORT_TIMEOUT_MS),
  );
  const processor = new BatchLogRecordProcessor({ exporter: route });
  const provider = new LoggerProvider({ resource, processors: [processor] });
  const failures = new FailureLoggerProvider(provider);
  if (logs.setGlobalLoggerProvider(failures) !== failures) {
    diag.warn('faultline: a LoggerProvider is already registered; logged errors go through it');
    void provider.shutdown().catch(() => undefined);
    return undefined;
  }
  let flushedAt = 0;
  return {
    hasUnflushed: () => failures.accepted > flushedAt,
    async flushForExit() {
      flushedAt = failures.accepted;
      // The processor hands each batch to the route synchronously once its export is scheduled;
      // the route stays on the quick exporter until the flush is over.
      route.exiting = true;
      try {
        await processor.forceFlush();
      } catch {
        // Reported through diag; leaving the process must not wait on it.
      } finally {
        route.exiting = false;
      }
    },
    shutdown: () => provider.shutdown(),
  };
}

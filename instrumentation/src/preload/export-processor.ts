import { context, diag } from '@opentelemetry/api';
import { ExportResultCode, suppressTracing } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';

const BATCH_SIZE = 512;
const DELAY_MS = 1000;
const EXPORT_TIMEOUT_MS = 10_000;

/**
 * A batch processor with a hard queue bound: an unreachable collector costs the application no
 * latency and no unbounded memory, only dropped spans, which are counted. Timers are unref'd so
 * a finished process is never kept alive by telemetry; flush and shutdown are idempotent.
 */
export class BoundedBatchProcessor implements SpanProcessor {
  private queue: ReadableSpan[] = [];
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> = Promise.resolve();
  private shuttingDown: Promise<void> | undefined;
  /** Spans discarded because the queue was full, since start. */
  dropped = 0;
  private unreported = 0;
  /** Spans ever handed to this processor; lets exit hooks skip a flush when nothing is new. */
  accepted = 0;

  constructor(
    private readonly exporter: SpanExporter,
    private readonly maxQueueSize: number,
  ) {}

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    if (this.shuttingDown || (span.spanContext().traceFlags & 1) === 0) return;
    if (this.queue.length >= this.maxQueueSize) {
      this.dropped++;
      this.unreported++;
      return;
    }
    this.accepted++;
    this.queue.push(span);
    if (this.queue.length >= BATCH_SIZE) this.exportNow();
    else this.schedule();
  }

  forceFlush(): Promise<void> {
    this.exportNow();
    return this.inFlight;
  }

  shutdown(): Promise<void> {
    this.shuttingDown ??= this.forceFlush().then(() => this.exporter.shutdown());
    return this.shuttingDown;
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.exportNow(), DELAY_MS);
    this.timer.unref();
  }

  private exportNow(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, BATCH_SIZE);
      this.inFlight = this.inFlight.then(() => this.send(batch));
    }
  }

  private send(batch: ReadableSpan[]): Promise<void> {
    if (this.unreported > 0) {
      diag.warn(`faultline: dropped ${this.unreported} spans because the export queue was full`);
      this.unreported = 0;
    }
    return new Promise<void>((resolve) => {
      const timeout = setTimeout(resolve, EXPORT_TIMEOUT_MS);
      timeout.unref();
      // The exporter's own HTTP request must not be traced, or exporting would feed itself.
      context.with(suppressTracing(context.active()), () => {
        this.exporter.export(batch, (result) => {
          clearTimeout(timeout);
          if (result.code !== ExportResultCode.SUCCESS) {
            diag.warn('faultline: span export failed', result.error);
          }
          resolve();
        });
      });
    });
  }
}

import { context, diag } from '@opentelemetry/api';
import { ExportResultCode, suppressTracing } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';

const BATCH_SIZE = 512;
const DELAY_MS = 1000;
const EXPORT_TIMEOUT_MS = 10_000;

/**
 * A batch processor with a hard bound: spans wait in one queue until their batch is sent, and
 * one export runs at a time, so an unreachable or slow collector costs the application no latency
 * and no unbounded memory, only dropped spans, which are counted. Timers are unref'd so a finished
 * process is never kept alive by telemetry; flush and shutdown are idempotent.
 */
export class BoundedBatchProcessor implements SpanProcessor {
  private readonly queue: ReadableSpan[] = [];
  private timer: NodeJS.Timeout | undefined;
  private exporting: Promise<void> | undefined;
  private shuttingDown: Promise<void> | undefined;
  /** Spans discarded because the queue was full, since start. */
  dropped = 0;
  private unreported = 0;
  /** Spans ever accepted; lets exit hooks skip a flush when nothing is new. */
  accepted = 0;

  /**
   * @param exitExporter used by flushForExit(): same destination, a short timeout and so no
   *   retries, because at exit a down collector must not hold the process open.
   */
  constructor(
    private readonly exporter: SpanExporter,
    private readonly exitExporter: SpanExporter,
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
    if (this.queue.length >= BATCH_SIZE) void this.exportOne(this.exporter);
    else this.schedule();
  }

  forceFlush(): Promise<void> {
    return this.drain(this.exporter);
  }

  /**
   * Flush on the way out (beforeExit, SIGTERM): one quick attempt per queued batch, beside (not
   * behind) an export already in flight, which may be waiting out an unref'd retry backoff that a
   * finished process must not sit through.
   */
  async flushForExit(): Promise<void> {
    const inFlight = this.exporting;
    while (this.queue.length > 0) await this.send(this.exitExporter, this.queue.splice(0, BATCH_SIZE));
    await inFlight;
  }

  shutdown(): Promise<void> {
    this.shuttingDown ??= this.forceFlush().then(async () => {
      await Promise.all([this.exporter.shutdown(), this.exitExporter.shutdown()]);
    });
    return this.shuttingDown;
  }

  private async drain(exporter: SpanExporter): Promise<void> {
    while (this.exporting || this.queue.length > 0) {
      await (this.exporting ?? this.exportOne(exporter));
    }
  }

  private schedule(): void {
    if (this.timer || this.exporting) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.exportOne(this.exporter);
    }, DELAY_MS);
    this.timer.unref();
  }

  /** Sends the next batch unless one is already in flight; the queue keeps the rest meanwhile. */
  private exportOne(exporter: SpanExporter): Promise<void> {
    if (this.exporting) return this.exporting;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.queue.splice(0, BATCH_SIZE);
    if (batch.length === 0) return Promise.resolve();
    this.exporting = this.send(exporter, batch).then(() => {
      this.exporting = undefined;
      if (this.queue.length >= BATCH_SIZE) void this.exportOne(this.exporter);
      else if (this.queue.length > 0) this.schedule();
    });
    return this.exporting;
  }

  private send(exporter: SpanExporter, batch: ReadableSpan[]): Promise<void> {
    if (this.unreported > 0) {
      diag.warn(`faultline: dropped ${this.unreported} spans because the export queue was full`);
      this.unreported = 0;
    }
    return new Promise<void>((resolve) => {
      const timeout = setTimeout(resolve, EXPORT_TIMEOUT_MS);
      timeout.unref();
      // The exporter's own HTTP request must not be traced, or exporting would feed itself.
      context.with(suppressTracing(context.active()), () => {
        exporter.export(batch, (result) => {
          clearTimeout(timeout);
          if (result.code !== ExportResultCode.SUCCESS)
            diag.warn('faultline: span export failed', result.error);
          resolve();
        });
      });
    });
  }
}

import { TraceFlags } from '@opentelemetry/api';
import type { ExportResult } from '@opentelemetry/core';
import {
  BatchSpanProcessor,
  type BufferConfig,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';

/**
 * The SDK's own BatchSpanProcessor, which already bounds its queue, counts and reports the spans it
 * drops, runs one scheduled export at a time on an unref'd timer, exports under `suppressTracing`
 * and reads OTEL_BSP_* itself. Faultline adds only what leaving the process needs:
 *
 * - `flushForExit()` sends the queued spans through a second exporter with a short timeout (one
 *   attempt, no retry waits), beside an export already in flight rather than behind it;
 * - the SDK arms a referenced timeout timer for each export in flight, which would keep a finished
 *   process alive for as long as an export to a down collector is retried: that timer is unref'd
 *   (the exporter's own request still holds the process while it is on the wire);
 * - `accepted` counts sampled spans, so a beforeExit hook flushes only when something is new.
 */
export class ExitFlushProcessor extends BatchSpanProcessor {
  /** Sampled spans ever handed to the queue (dropped ones included). */
  accepted = 0;
  private readonly route: ExitRoute;

  constructor(exporter: SpanExporter, exitExporter: SpanExporter, config?: BufferConfig) {
    const route = new ExitRoute(exporter, exitExporter);
    super(route, config);
    this.route = route;
    unrefExportTimeouts(this);
  }

  override onEnd(span: ReadableSpan): void {
    if ((span.spanContext().traceFlags & TraceFlags.SAMPLED) !== 0) this.accepted++;
    super.onEnd(span);
  }

  /** Flushes on the way out (beforeExit, SIGTERM); resolves whether or not the export worked. */
  flushForExit(): Promise<void> {
    // The SDK takes each batch and calls export() synchronously inside forceFlush().
    this.route.exiting = true;
    try {
      return this.forceFlush().catch(() => undefined);
    } finally {
      this.route.exiting = false;
    }
  }
}

/** Hands each batch to the regular exporter, or to the quick one while an exit flush takes them. */
class ExitRoute implements SpanExporter {
  exiting = false;

  constructor(
    private readonly exporter: SpanExporter,
    private readonly exitExporter: SpanExporter,
  ) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    (this.exiting ? this.exitExporter : this.exporter).export(spans, done);
  }

  async shutdown(): Promise<void> {
    await Promise.all([this.exporter.shutdown(), this.exitExporter.shutdown()]);
  }

  async forceFlush(): Promise<void> {
    await Promise.all([this.exporter.forceFlush?.(), this.exitExporter.forceFlush?.()]);
  }
}

/**
 * BatchSpanProcessorBase arms `setTimeout(reject, exportTimeoutMillis)` synchronously in
 * `_flushOneBatch()` (sdk-trace 2.x) before handing the batch to the exporter, and keeps no handle
 * to it. Timers created during that synchronous call are unref'd: unref only changes whether a
 * timer keeps the process alive, never when it fires. If the internals change shape, the SDK's
 * behaviour is kept as is.
 */
function unrefExportTimeouts(processor: BatchSpanProcessor): void {
  const target = processor as unknown as { _flushOneBatch?: () => Promise<void> };
  const flushOne = target._flushOneBatch;
  if (typeof flushOne !== 'function') return;
  target._flushOneBatch = () => {
    const set = globalThis.setTimeout;
    globalThis.setTimeout = ((...args: Parameters<typeof setTimeout>) => {
      const timer = set(...args);
      timer?.unref?.();
      return timer;
    }) as typeof setTimeout;
    try {
      return flushOne.call(processor);
    } finally {
      globalThis.setTimeout = set;
    }
  };
}

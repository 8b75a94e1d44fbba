import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { BoundedBatchProcessor } from '../../src/preload/sdk/export-processor.js';

/** An exporter whose callback the test releases, to model a slow or unreachable collector. */
class HeldExporter implements SpanExporter {
  batches: number[] = [];
  private pending: (() => void)[] = [];
  export(spans: ReadableSpan[], done: (r: { code: number }) => void): void {
    this.batches.push(spans.length);
    this.pending.push(() => done({ code: 0 }));
  }
  release(): void {
    for (const p of this.pending.splice(0)) p();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const span = { spanContext: () => ({ traceFlags: 1 }) } as unknown as ReadableSpan;
const unsampled = { spanContext: () => ({ traceFlags: 0 }) } as unknown as ReadableSpan;

describe('BoundedBatchProcessor', () => {
  it('keeps one export in flight, bounds the queue behind it and counts what it drops', async () => {
    const exporter = new HeldExporter();
    const processor = new BoundedBatchProcessor(exporter, exporter, 1000);
    for (let i = 0; i < 2000; i++) processor.onEnd(span);
    processor.onEnd(unsampled);
    // 512 left in the first batch; 1000 more queued; the remaining 488 dropped.
    expect(exporter.batches).toEqual([512]);
    expect(processor.dropped).toBe(488);
    expect(processor.accepted).toBe(1512);
    const flushed = processor.forceFlush();
    for (let i = 0; i < 4; i++) {
      exporter.release();
      await new Promise((r) => setImmediate(r));
    }
    await flushed;
    expect(exporter.batches).toEqual([512, 512, 488]);
  });

  it('shuts down once, however often it is asked', async () => {
    const exporter = new HeldExporter();
    const processor = new BoundedBatchProcessor(exporter, exporter, 10);
    processor.onEnd(span);
    const a = processor.shutdown();
    const b = processor.shutdown();
    expect(a).toBe(b);
    exporter.release();
    await a;
    processor.onEnd(span);
    expect(exporter.batches).toEqual([1]);
  });

  it('flushes for exit through the quick exporter, beside an export still in flight', async () => {
    const slow = new HeldExporter();
    const quick = new HeldExporter();
    const processor = new BoundedBatchProcessor(slow, quick, 2048);
    for (let i = 0; i < 600; i++) processor.onEnd(span); // 512 leave at once, on the slow exporter
    for (let i = 0; i < 100; i++) processor.onEnd(span);
    const flushed = processor.flushForExit();
    await new Promise((r) => setImmediate(r));
    // The slow export (a collector that is down, retrying) does not hold the queued spans back.
    expect(slow.batches).toEqual([512]);
    expect(quick.batches).toEqual([188]);
    quick.release();
    slow.release();
    await flushed;
  });
});

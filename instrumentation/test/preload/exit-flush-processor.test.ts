import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { isTracingSuppressed } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitFlushProcessor } from '../../src/preload/sdk/exit-flush-processor.js';

/** An exporter whose callback the test releases, to model a slow or unreachable collector. */
class HeldExporter implements SpanExporter {
  batches: number[] = [];
  suppressed: boolean[] = [];
  private pending: (() => void)[] = [];
  export(spans: ReadableSpan[], done: (r: { code: number }) => void): void {
    this.batches.push(spans.length);
    this.suppressed.push(isTracingSuppressed(context.active()));
    this.pending.push(() => done({ code: 0 }));
  }
  release(): void {
    for (const p of this.pending.splice(0)) p();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const resource = { asyncAttributesPending: false };
const span = { spanContext: () => ({ traceFlags: 1 }), resource } as unknown as ReadableSpan;
const unsampled = { spanContext: () => ({ traceFlags: 0 }), resource } as unknown as ReadableSpan;

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('ExitFlushProcessor (the SDK BatchSpanProcessor plus the exit flush)', () => {
  // suppressTracing lives in the context: without a manager every context is the root one.
  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  });
  afterAll(() => {
    context.disable();
  });

  it('keeps one scheduled export in flight, bounds the queue behind it and skips unsampled spans', async () => {
    const exporter = new HeldExporter();
    const processor = new ExitFlushProcessor(exporter, exporter, { maxQueueSize: 1000 });
    for (let i = 0; i < 2000; i++) processor.onEnd(span);
    processor.onEnd(unsampled);
    // A full batch leaves at once; while it is in flight 1000 wait, the other 488 are dropped.
    expect(exporter.batches).toEqual([512]);
    expect(processor.accepted).toBe(2000);
    expect(exporter.suppressed).toEqual([true]);
    exporter.release();
    const flushed = processor.forceFlush();
    for (let i = 0; i < 4; i++) {
      exporter.release();
      await tick();
    }
    await flushed;
    expect(exporter.batches.reduce((a, b) => a + b, 0)).toBe(512 + 1000);
  });

  it('shuts down once, however often it is asked', async () => {
    const exporter = new HeldExporter();
    const processor = new ExitFlushProcessor(exporter, exporter, { maxQueueSize: 10 });
    processor.onEnd(span);
    const a = processor.shutdown();
    const b = processor.shutdown();
    await tick();
    exporter.release();
    await Promise.all([a, b]);
    processor.onEnd(span);
    expect(exporter.batches).toEqual([1]);
  });

  it('flushes for exit through the quick exporter, beside an export still in flight', async () => {
    const slow = new HeldExporter();
    const quick = new HeldExporter();
    const processor = new ExitFlushProcessor(slow, quick, { maxQueueSize: 2048 });
    for (let i = 0; i < 600; i++) processor.onEnd(span); // 512 leave at once, on the slow exporter
    for (let i = 0; i < 100; i++) processor.onEnd(span);
    const flushed = processor.flushForExit();
    await tick();
    // The slow export (a collector that is down, retrying) does not hold the queued spans back.
    expect(slow.batches).toEqual([512]);
    expect(quick.batches).toEqual([188]);
    quick.release();
    await flushed;
    // After the exit flush, batches go to the regular exporter again.
    slow.release();
    processor.onEnd(span);
    const after = processor.forceFlush();
    await tick();
    slow.release();
    await after;
    expect(slow.batches).toEqual([512, 1]);
    expect(quick.batches).toEqual([188]);
  });

  it('leaves no export timeout holding the process while an export waits', async () => {
    const exporter = new HeldExporter();
    const processor = new ExitFlushProcessor(exporter, exporter, {
      maxQueueSize: 10,
      exportTimeoutMillis: 60_000,
    });
    const refTimers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const baseline = refTimers();
    processor.onEnd(span);
    const flushed = processor.forceFlush();
    // The SDK's 60 s timeout timer is armed for the held export, but unref'd.
    expect(exporter.batches).toEqual([1]);
    expect(refTimers()).toBe(baseline);
    exporter.release();
    await flushed;
  });
});

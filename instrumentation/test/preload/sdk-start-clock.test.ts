import { performance } from 'node:perf_hooks';
import { SpanKind } from '@opentelemetry/api';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';

// The span processor numbers repeats by each client call's start on the SDK's own performance
// clock, read from the SDK span's private `_performanceStartTime` (span-processor.ts onStart).
// Without it the processor falls back to a later reading of its own, and a failure's computed end
// can land past a repeat that began microseconds after it. This holds the SDK to the field, so an
// SDK upgrade that renames it fails here instead of quietly bringing that race back.
describe('the SDK span start the span processor reads', () => {
  it('is a number on the performance clock, the one the span end and duration are measured on', () => {
    const tracer = new BasicTracerProvider().getTracer('start-clock');
    const before = performance.now();
    const span = tracer.startSpan('GET', { kind: SpanKind.CLIENT });
    const after = performance.now();
    const start = (span as unknown as { _performanceStartTime?: unknown })._performanceStartTime;
    expect(typeof start).toBe('number');
    expect(start as number).toBeGreaterThanOrEqual(before);
    expect(start as number).toBeLessThanOrEqual(after);
    span.end();
  });
});

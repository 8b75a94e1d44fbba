/** What Faultline's gRPC wrappers share: the span of the call they run in, and their own mark. */
import { type Span, SpanKind, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

/** Marks Faultline's own wrappers so that a second patch (ESM and CommonJS) adds no layer. */
export const CAPTURE_MARK: unique symbol = Symbol.for('faultline.grpc.capture');

/**
 * The instrumentation's span of this very call: it is the active span while the wrapped method
 * runs. Checked against the method path so a call the instrumentation skipped (ignoreGrpcMethods)
 * never lends its error to an enclosing RPC span.
 */
export function activeRpcSpan(kind: SpanKind, path: unknown): Span | undefined {
  const span = trace.getActiveSpan();
  const sdk = span as unknown as Partial<ReadableSpan> | undefined;
  const attrs = sdk?.attributes;
  if (span === undefined || sdk?.kind !== kind || attrs?.['rpc.system'] !== 'grpc') return undefined;
  if (!span.isRecording()) return undefined;
  if (typeof path === 'string' && path !== `/${attrs['rpc.service']}/${attrs['rpc.method']}`)
    return undefined;
  return span;
}

export function isCapture(fn: unknown): boolean {
  // Walks shimmer's __original chain: the instrumentation's wrapper may sit on top of ours.
  let current: unknown = fn;
  for (let depth = 0; depth < 8 && typeof current === 'function'; depth++) {
    const props = current as unknown as Record<string | symbol, unknown>;
    if (props[CAPTURE_MARK] === true) return true;
    current = props.__original;
  }
  return false;
}

export function markCapture<T extends object>(fn: T): T {
  Object.defineProperty(fn, CAPTURE_MARK, { value: true });
  return fn;
}

export const CLIENT = SpanKind.CLIENT;
export const SERVER = SpanKind.SERVER;

/**
 * The driver's own error of a failed call, filed against the call's span by the hooks that reach
 * it (pg, tedious, ioredis, gRPC, Faultline's own instrumentations, every `recordException`) until `onEnding` classifies it: the instrumentations keep only a
 * summary (a message, a code string), not the error object. Weak keys, so a span that never ends
 * costs nothing. The first error filed wins: a stream's later 'error' (after a cancel) must not
 * replace the cause.
 */
const errors = new WeakMap<object, unknown>();

export function fileSpanError(span: object, err: unknown): void {
  if (err != null && !errors.has(span)) errors.set(span, err);
}

/** Whether a hook filed an error for this span (not yet taken). */
export function hasSpanError(span: object): boolean {
  return errors.has(span);
}

/** The error filed for this span, once; undefined when no hook reached one. */
export function takeSpanError(span: object): unknown {
  const err = errors.get(span);
  if (err !== undefined) errors.delete(span);
  return err;
}

const PATCHED = Symbol.for('faultline.record-exception');
type RecordException = (this: object, exception: unknown, time?: unknown) => unknown;
interface SpanPrototype {
  recordException?: RecordException;
  [PATCHED]?: true;
}
let seen: object | null = null;

/**
 * Every instrumentation that records a failure calls `span.recordException(err)` with the error
 * object itself, of which the exception event keeps only a type and a message. Wrapping the SDK
 * span class's method once (found from the first span, so the application's own SDK copy in
 * faultline() is reached too) files that object against its span for `onEnding`: the driver's
 * code, a broker's reply code, an HTTP error's status and headers. Per span, one prototype read.
 */
export function fileRecordedExceptions(span: object): void {
  const proto = Object.getPrototypeOf(span) as SpanPrototype | null;
  if (proto === seen) return;
  seen = proto;
  const original = proto?.recordException;
  if (!proto || proto[PATCHED] || typeof original !== 'function') return;
  Object.defineProperty(proto, PATCHED, { value: true });
  proto.recordException = function recordException(this: object, exception: unknown, time?: unknown) {
    if (exception !== null && typeof exception === 'object') fileSpanError(this, exception);
    return original.call(this, exception, time);
  };
}

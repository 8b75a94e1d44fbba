/**
 * The driver's own error of a failed call, filed against the call's span by the hooks that reach
 * it (pg, tedious, ioredis, gRPC) until `onEnding` classifies it: the instrumentations keep only a
 * summary (a message, a code string), not the error object. Weak keys, so a span that never ends
 * costs nothing. The first error filed wins: a stream's later 'error' (after a cancel) must not
 * replace the cause.
 */
const errors = new WeakMap<object, unknown>();

export function fileSpanError(span: object, err: unknown): void {
  if (err != null && !errors.has(span)) errors.set(span, err);
}

/** The error filed for this span, once; undefined when no hook reached one. */
export function takeSpanError(span: object): unknown {
  const err = errors.get(span);
  if (err !== undefined) errors.delete(span);
  return err;
}

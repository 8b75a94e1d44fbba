/**
 * Per-span state the processor reads on every span, kept on the span object under symbols rather
 * than in WeakMaps: a WeakMap entry per span made every span pay a hash-table insert and the
 * collector of garbage an ephemeron to trace (profiled in the preload bench: the largest share of
 * the processor's own time). Set on every span at start, so all spans keep one shape after it.
 * Symbols are invisible to exporters, JSON and Object.keys.
 */
const ENTRY = Symbol('faultline.entry');
const STARTED_AT = Symbol('faultline.startedAt');
const CALLER = Symbol('faultline.caller');

interface Marked {
  [ENTRY]?: boolean;
  [STARTED_AT]?: number;
  [CALLER]?: string;
}

export function markStart(span: object, entry: boolean, startedAt: number, caller: string): void {
  const marked = span as Marked;
  marked[ENTRY] = entry;
  marked[STARTED_AT] = startedAt;
  marked[CALLER] = caller;
}

/**
 * The span id of the call this span's request came from: the remote parent of its local root
 * (faultline.caller_span_id), '' when the request had none or the span is unmarked.
 */
export function callerOf(span: object): string {
  return (span as Marked)[CALLER] ?? '';
}

/** Whether the span belongs to a request this process received from outside (see the processor). */
export function isEntry(span: object): boolean {
  return (span as Marked)[ENTRY] === true;
}

/** performance.now() at the span's start (0 when it is not a client span), undefined if unmarked. */
export function startedAtOf(span: object): number | undefined {
  const at = (span as Marked)[STARTED_AT];
  return at === undefined || at === 0 ? undefined : at;
}

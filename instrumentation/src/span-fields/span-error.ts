/** What a failed span says about its error: its exception event, status and `error.type`. */
export interface SpanError {
  /** `exception.type` (a class name: "psycopg2.errors.DeadlockDetected", "*pgconn.PgError"). */
  type: string | undefined;
  message: string;
  errorType: string | undefined;
}

/**
 * A failed span as both ends see it once the error object is gone: its attributes stringified as
 * the collector stores them (numbers in decimal, string arrays as JSON), the `exception` event's
 * type and message, and the status description. The collector reads it from a stored row, the
 * preload from an ending span no hook reached.
 */
export interface FailedSpanFields {
  attrs: Record<string, string>;
  exceptionType: string | undefined;
  exceptionMessage: string | undefined;
  statusMessage: string | undefined;
}

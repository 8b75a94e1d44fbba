/** What a failed span says about its error: its exception event, status and `error.type`. */
export interface SpanError {
  /** `exception.type` (a class name: "psycopg2.errors.DeadlockDetected", "*pgconn.PgError"). */
  type: string | undefined;
  message: string;
  errorType: string | undefined;
}

/**
 * The writer's bounded queue (or spool) is full. The receiver answers 429/503 with
 * `Retry-After: retryAfterSeconds`, which OTLP exporters honour, instead of buffering more.
 */
export class SaturatedError extends Error {
  override readonly name = 'SaturatedError';
  readonly code = 'FAULTLINE_SATURATED';
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

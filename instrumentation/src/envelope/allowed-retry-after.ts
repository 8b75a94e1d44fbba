/**
 * The retry_after rule: a wait means something only beside a retry, so it is a number only when
 * `retryable` is true, and only a finite number of seconds >= 0; anything else is null. Every
 * envelope passes here (buildEnvelope, toModelEnvelope), and the JSON Schema states it below.
 */
export function allowedRetryAfter(retryable: boolean, after: unknown): number | null {
  return retryable && typeof after === 'number' && Number.isFinite(after) && after >= 0 ? after : null;
}

/** allowedRetryAfter for JSON Schema validators: retry_after is null whenever retryable is false. */
export const RETRY_AFTER_SCHEMA_RULE = {
  if: { properties: { retryable: { const: false } }, required: ['retryable'] },
  // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword, not a thenable.
  then: { properties: { retry_after: { type: 'null' } } },
} as const;

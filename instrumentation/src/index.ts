/**
 * Public API of @faultline/instrumentation: the envelope, its classifiers and the retry
 * policies — the pure core, which loads no OpenTelemetry module (test/entry/pure-core.test.ts).
 * The preload entry is `@faultline/instrumentation/register`; the programmatic SDK start is
 * `@faultline/instrumentation/start`.
 */

export * as attributes from './attributes.js';
export { dbSystemOf } from './db-system.js';
export {
  addDerivedAttributes,
  type DerivableSpan,
  DISTRO_NAME,
  DISTRO_NAME_KEY,
  derivedStatusMessage,
} from './derived-attributes.js';
export {
  createEnvelope,
  defaultRetryable,
  type EnvelopeInit,
  ERROR_CLASSES,
  MAX_MESSAGE_CHARS,
} from './envelope.js';
export { classifyError } from './error/classify-error.js';
export { classifyHttpResponse, type HttpClassifyContext } from './http/classify-http-response.js';
export { normalizeHeaders, parseRetryAfter } from './http/headers.js';
export { toModelEnvelope } from './model-envelope.js';
export {
  type AttemptInfo,
  currentAttempt,
  currentAttemptInfo,
  runInAttempt,
} from './policy/attempt-context.js';
export {
  backoffDelayMs,
  RETRY_DEFAULTS,
  type RetryAction,
  type RetryDecision,
  type RetryPolicyOptions,
  retryDecision,
} from './policy/retry-decision.js';
export { type AttemptRecord, RetryError } from './policy/retry-error.js';
export { type AttemptContext, type WithRetryOptions, withRetry } from './policy/with-retry.js';
export { boundedText, RAW_LIMITS, toRaw } from './raw.js';
export { isSecretKey, REDACTED, redactText } from './redact.js';
export { envelopeJsonSchema, modelEnvelopeJsonSchema } from './schema.js';
export { sourceOf } from './span-source.js';
export type {
  ClassifyContext,
  Envelope,
  ErrorClass,
  ErrorSource,
  HttpResponseLike,
  JsonValue,
  ModelEnvelope,
} from './types.js';

/**
 * Public API of @faultline/instrumentation: the envelope, its classifiers and the retry
 * policies — the pure core, which loads no OpenTelemetry module (test/entry/pure-core.test.ts).
 * The preload entry is `@faultline/instrumentation/register`; the programmatic SDK start is
 * `@faultline/instrumentation/start`.
 */

export {
  addDerivedAttributes,
  type DerivableSpan,
  derivedStatusMessage,
} from './derive/derived-attributes.js';
export {
  attributes,
  boundedText,
  countingRules,
  countMetrics,
  createEnvelope,
  DISTRO_NAME,
  DISTRO_NAME_KEY,
  dbSystemOf,
  defaultRetryable,
  type EnvelopeInit,
  ERROR_CLASSES,
  envelopeJsonSchema,
  MAX_MESSAGE_CHARS,
  modelEnvelopeJsonSchema,
  RAW_LIMITS,
  type SamplingWeight,
  samplingWeightOf,
  sourceOf,
  spanWeightOf,
  toModelEnvelope,
  toRaw,
} from './envelope/index.js';
export { classifyError } from './error/classify-error.js';
export { classifyHttpResponse } from './http/classify-http-response.js';
export { normalizeHeaders, parseRetryAfter } from './http/headers.js';
export type { HttpClassifyContext } from './http/http-classify-context.js';
export * as agentRules from './policy/agent-rules.js';
export {
  type AttemptInfo,
  currentAttempt,
  currentAttemptInfo,
  runInAttempt,
} from './policy/attempt-context.js';
export type {
  ActionVerdict,
  FollowingCalls,
  NextAction,
  ToolHelperKind,
} from './policy/next-action.js';
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
export { isSecretKey, REDACTED, redactText } from './redact/index.js';
export { envelopeOfFailedSpan } from './span-fields/envelope-of-failed-span.js';
export { grpcStatusOf, headerValue } from './span-fields/semconv-reads.js';
export type { FailedSpanFields } from './span-fields/span-error.js';
export { envelopeOfToolResult } from './span-fields/tool-result-of-span.js';
export { classifyToolError } from './tool/classify-tool-error.js';
export { classifyToolResult } from './tool/classify-tool-result.js';
export { guardMcpClient } from './tool/guard-mcp-client.js';
export type { RefusedCall, ToolFailure } from './tool/guard-result.js';
export { type GuardOptions, guardTools } from './tool/guard-tools.js';
export { ToolCallMemory } from './tool/tool-call-memory.js';
export type {
  ClassifyContext,
  Envelope,
  ErrorClass,
  ErrorSource,
  HttpResponseLike,
  JsonValue,
  ModelEnvelope,
} from './types.js';

import type { ErrorClass } from '../types.js';
import { errorName, read, readString } from './safe-read.js';
import type { Verdict } from './verdict.js';

/**
 * SDK and HTTP-client failures raised before any response existed: connection errors, caller
 * aborts, timeouts (Stripe, Stainless SDKs, axios, node-fetch, Azure, Slack, Vercel AI SDK).
 * Code rule: the SDK's error name or code ("APIConnectionError", "ECONNABORTED").
 */

/** Failures these SDKs raise before any response exists, by error name. */
const NO_RESPONSE: Record<string, [ErrorClass, string]> = {
  AI_LoadAPIKeyError: ['authentication', 'sdk'], // Vercel AI SDK: no API key configured
  AI_InvalidArgumentError: ['validation', 'sdk'],
  AI_TypeValidationError: ['validation', 'sdk'],
  StripeConnectionError: ['transient', 'sdk'],
  StripeSignatureVerificationError: ['authentication', 'sdk'],
  APIConnectionError: ['transient', 'sdk'], // OpenAI, Anthropic and other Stainless SDKs
  APIConnectionTimeoutError: ['transient', 'sdk'],
  APIUserAbortError: ['permanent', 'sdk'], // the caller aborted
};

/** axios's own codes when no response arrived (system codes go to the Node table). */
const AXIOS_CODES: Record<string, ErrorClass> = {
  ECONNABORTED: 'transient', // axios's timeout
  ERR_NETWORK: 'transient',
  ERR_CANCELED: 'permanent',
  ERR_BAD_OPTION: 'validation',
  ERR_BAD_OPTION_VALUE: 'validation',
  ERR_INVALID_URL: 'validation',
  ERR_FR_TOO_MANY_REDIRECTS: 'permanent',
  ERR_NOT_SUPPORT: 'permanent',
  ERR_DEPRECATED: 'permanent',
};

/** node-fetch FetchError `type` values raised without a system code. */
const FETCH_ERROR_TYPES: Record<string, ErrorClass> = {
  'request-timeout': 'transient',
  'body-timeout': 'transient',
  'max-redirect': 'permanent',
  'max-size': 'permanent',
  'invalid-json': 'permanent',
  'no-redirect': 'permanent',
};

/** Azure core-rest-pipeline RestError codes raised without a response. */
const AZURE_CODES: Record<string, ErrorClass> = {
  REQUEST_SEND_ERROR: 'transient',
  PARSE_ERROR: 'permanent',
};

/** Typed no-response failures of the SDKs above (connection errors, caller aborts, axios codes). */
export function classifySdkNoResponse(err: unknown, name: string = errorName(err) ?? ''): Verdict | null {
  const known = NO_RESPONSE[name];
  if (known !== undefined) return { class: known[0], code: name, source: known[1], raw: { name } };
  // node-fetch v2/v3 FetchError: `type` says what failed when there is no system code.
  if (name === 'FetchError') {
    const type = readString(err, 'type');
    const cls = type === undefined ? undefined : FETCH_ERROR_TYPES[type];
    if (cls !== undefined && readString(err, 'code') === undefined) {
      return { class: cls, code: type as string, source: 'http', raw: { name, type } };
    }
  }
  const code = readString(err, 'code');
  if (code === undefined) return null;
  if (code === 'slack_webapi_rate_limited_error') {
    // @slack/web-api reads Retry-After for us and keeps it as `retryAfter` (seconds), with no status.
    const after = read(err, 'retryAfter');
    const verdict: Verdict = { class: 'rate_limit', code, source: 'sdk', raw: { code } };
    if (typeof after === 'number' && Number.isFinite(after) && after >= 0) verdict.retryAfter = after;
    return verdict;
  }
  if (read(err, 'isAxiosError') === true && code in AXIOS_CODES) {
    return { class: AXIOS_CODES[code] as ErrorClass, code, source: 'http', raw: { name, code } };
  }
  if (name === 'RestError' && code in AZURE_CODES) {
    return { class: AZURE_CODES[code] as ErrorClass, code, source: 'sdk', raw: { name, code } };
  }
  return null;
}

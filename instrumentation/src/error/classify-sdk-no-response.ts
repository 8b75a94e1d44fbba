import type { ErrorClass } from '../types.js';
import { classifyNodeCode } from './classify-node-system-error.js';
import { rootSystemCode } from './root-cause-code.js';
import { errorName, read, readString } from './safe-read.js';
import type { Verdict } from './verdict.js';

/**
 * SDK and HTTP-client failures raised before any response existed: connection errors, caller
 * aborts, timeouts (Stripe, Stainless SDKs, axios, node-fetch, Azure, Slack, Vercel AI SDK).
 * Code rule (one for every library): the system code of the root cause ("ECONNREFUSED" under a
 * StripeConnectionError's `detail` or an APIConnectionError's `cause`); a library's own timeout
 * with no socket code is "ETIMEDOUT", a caller's abort Node's "ABORT_ERR". Never the SDK's class
 * name: one refused connection must group under one code whichever client met it.
 */

/** What a no-response failure was: decides the fallback code when no system code sits below. */
type NoResponseKind = 'connection' | 'timeout' | 'abort' | 'auth' | 'validation';

/** Failures these SDKs raise before any response exists, by error name. */
const NO_RESPONSE: Record<string, NoResponseKind> = {
  AI_LoadAPIKeyError: 'auth', // Vercel AI SDK: no API key configured
  AI_InvalidArgumentError: 'validation',
  AI_TypeValidationError: 'validation',
  StripeConnectionError: 'connection', // `detail` holds the socket error (stripe/cjs/RequestSender.js)
  StripeSignatureVerificationError: 'auth',
  APIConnectionError: 'connection', // OpenAI, Anthropic and other Stainless SDKs: `cause`
  APIConnectionTimeoutError: 'timeout', // the SDK's own `timeout` option fired
  APIUserAbortError: 'abort', // the caller's signal aborted
};

/** The fallback code and class of each kind, used when no system code sits below the wrapper. */
const KIND: Record<NoResponseKind, [ErrorClass, string | undefined]> = {
  connection: ['transient', 'connection_error'],
  timeout: ['transient', 'ETIMEDOUT'],
  abort: ['permanent', 'ABORT_ERR'],
  auth: ['authentication', undefined],
  validation: ['validation', undefined],
};

/** A connection failure takes its class and code from the socket error beneath it, if any. */
function fromKind(err: unknown, name: string, kind: NoResponseKind): Verdict {
  const [fallbackClass, fallbackCode] = KIND[kind];
  if (kind === 'connection' || kind === 'timeout') {
    const root = rootSystemCode(err);
    if (root !== undefined) {
      const cls = classifyNodeCode(root) ?? fallbackClass;
      return { class: cls, code: root, source: 'sdk', raw: { name, code: root } };
    }
  }
  // Configuration errors have no code of their own: their name is the only stable one.
  return { class: fallbackClass, code: fallbackCode ?? name, source: 'sdk', raw: { name } };
}

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
  const kind = NO_RESPONSE[name];
  if (kind !== undefined) return fromKind(err, name, kind);
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
    // The SDK's code names its class; the vendor sent only the status (one code rule).
    const verdict: Verdict = { class: 'rate_limit', code: '429', source: 'sdk', raw: { code } };
    if (typeof after === 'number') verdict.retryAfter = after;
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

import { QUOTA, vendorMeaning } from '../http/vendor-codes.js';
import type { ClassifyContext, Envelope } from '../types.js';
import type { EmbeddedHttp } from './find-embedded-http.js';
import { retryAfterOf } from './retry-after-of.js';
import { read } from './safe-read.js';
import type { Verdict } from './verdict.js';

/**
 * Errors that embed an HTTP response: vendor SDKs (Stripe, OpenAI, Anthropic, Google gaxios, Azure
 * RestError) and HTTP clients (axios, got, ky, superagent, Octokit, undici's ResponseError).
 * Their status, headers and body go through classifyHttpResponse, so Retry-After, X-Should-Retry,
 * Stripe-Should-Retry and quota bodies mean the same here as on a raw response.
 * Code rule: the vendor's own error code when it sends one ("card_declined",
 * "insufficient_quota"), else what classifyHttpResponse chose (the status, or the body's code).
 */

export type ClassifyResponse = (
  res: { status: number; headers?: unknown; body?: unknown },
  ctx?: ClassifyContext,
) => Envelope | null;

/** Classifies an embedded response through the HTTP classifier; null when it is not a failure. */
export function classifyEmbeddedHttp(
  err: unknown,
  embedded: EmbeddedHttp,
  classifyResponse: ClassifyResponse,
): Verdict | null {
  const env = classifyResponse({ status: embedded.status, headers: embedded.headers, body: embedded.body });
  if (env === null) return null;
  const verdict: Verdict = {
    class: env.class,
    code: embedded.vendorCode ?? env.code,
    source: embedded.source,
    retryable: env.retryable,
    retryAfter: env.retry_after,
    raw: {},
    http: env,
  };
  // The SDK's own verdict (Vercel AI SDK `isRetryable`) is an explicit signal, like X-Should-Retry.
  const isRetryable = read(err, 'isRetryable');
  if (typeof isRetryable === 'boolean' && isRetryable !== verdict.retryable) {
    verdict.retryable = isRetryable;
    if (isRetryable && (verdict.class === 'permanent' || verdict.class === 'validation'))
      verdict.class = 'transient';
  }
  // A vendor code the response classifier could not see (it lives on the error, not the body).
  const meaning = embedded.vendorCode === undefined ? undefined : vendorMeaning(embedded.vendorCode);
  if (meaning === QUOTA) {
    verdict.class = 'permanent';
    verdict.retryable = false;
  } else if (meaning === 'rate_limit' && env.class !== 'rate_limit') {
    verdict.class = 'rate_limit';
    verdict.retryable = true;
    verdict.retryAfter = env.retry_after ?? retryAfterOf(embedded.headers);
  }
  return verdict;
}

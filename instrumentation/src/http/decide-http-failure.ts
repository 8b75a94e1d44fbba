import { buildEnvelope, MAX_MESSAGE_CHARS } from '../envelope/create-envelope.js';
import { defaultRetryable } from '../envelope/error-classes.js';
import {
  boundedText,
  type KnownText,
  RAW_LIMITS,
  redactedHead,
  toRaw,
  truncate,
} from '../envelope/to-raw.js';
import { redactText } from '../redact/redact-text.js';
import type { Envelope, ErrorClass } from '../types.js';
import type { BodyFindings } from './body-findings.js';
import { type HeaderFindings, rateLimitResetSeconds } from './header-findings.js';
import type { RelevantHeaders } from './headers.js';
import type { HttpClassifyContext } from './http-classify-context.js';
import { classFromMessage, mentionsExhaustedQuota, mentionsRateLimit } from './message-class.js';
import type { BodyView } from './read-response.js';
import { classForStatus, statusMessage } from './status-class.js';

/**
 * Header values that arrive on most responses and that redactText returns as they are. Kept
 * only if redactText agrees at load, so skipping it for them cannot change `raw.headers`.
 */
const PLAIN_VALUES = new Set(
  [
    'application/json',
    'application/json; charset=utf-8',
    'application/json;charset=utf-8',
    'application/problem+json',
    'application/xml',
    'text/xml',
    'text/plain',
    'text/plain; charset=utf-8',
    'text/html',
    'text/html; charset=utf-8',
    'nginx',
    'cloudflare',
    'AmazonS3',
  ].filter((v) => redactText(v) === v),
);

/** The redacted subset of response headers stored in `raw.headers`. */
function rawHeaders(h: RelevantHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  const { names, values } = h;
  for (let i = 0; i < names.length; i++) {
    const v = values[i] as string;
    out[names[i] as string] = PLAIN_VALUES.has(v) ? v : redactText(v.length > 256 ? v.slice(0, 256) : v);
  }
  return out;
}

const MAX_RAW_TEXT = 2048;

/** A text body for raw; a one-line body is usually the message itself, already redacted. */
function rawText(text: string, known: KnownText | undefined): string {
  // Both redact the whole string when it is this short, so the message's redaction is reusable.
  if (known !== undefined && known.text === text && text.length <= RAW_LIMITS.maxStringChars * 4)
    return truncate(known.redacted, MAX_RAW_TEXT);
  return boundedText(text, MAX_RAW_TEXT);
}

/**
 * The one decision: a failing response's findings become its envelope. Vendors put the real
 * answer in the body and headers, so they speak before the status: a 200 whose body says
 * `ok: false`, a 403 that is a rate limit, a 429 that is an exhausted bill, an AWS throttle on a
 * 400. A server's explicit retry verdict beats every inference. Reads nothing but its inputs,
 * save the rate-limit reset, which is worked out only for a rate limit that sent no wait.
 */
export function decideHttpFailure(
  status: number,
  view: BodyView,
  body: Readonly<BodyFindings>,
  headers: Readonly<HeaderFindings>,
  ctx: HttpClassifyContext | undefined,
): Envelope {
  const failing = status >= 400;
  const message = body.message;

  // The codes: the body's decide; a failing response whose body knew none is ranked by its header codes.
  let cls: ErrorClass | undefined;
  let quota: boolean | undefined;
  let code: string | undefined;
  if (failing && body.cls === undefined) {
    cls = headers.cls;
    quota = headers.quota;
    code = headers.ranked ?? body.named ?? headers.named;
  } else {
    cls = body.cls;
    quota = body.quota;
    code = body.ranked ?? body.named;
  }

  // The class: codes, then rate-limit signs, then a bill said in words, then the status.
  if (cls === undefined && (status === 403 || status === 400 || !failing)) {
    // A 403 carrying Retry-After is GitHub's secondary rate limit even when the body says nothing.
    if (
      headers.exhausted ||
      (message !== undefined && mentionsRateLimit(message)) ||
      (status === 403 && headers.retryAfterSent)
    )
      cls = 'rate_limit';
  }
  // A bill said in words under a validation status (Anthropic's 400 "credit balance is too low").
  if (
    (cls === undefined || cls === 'validation') &&
    message !== undefined &&
    mentionsExhaustedQuota(message)
  ) {
    cls = 'permanent';
    quota = true;
  }
  if (cls === undefined) {
    cls = failing
      ? (classForStatus(status) as ErrorClass)
      : (message && classFromMessage(message)) || 'permanent';
  }

  // Retrying: the class's default, then the server's verdict (never for an exhausted bill).
  let retryable = !quota && defaultRetryable(cls);
  const verdict = headers.verdict ?? body.retryable;
  if (verdict !== undefined && !(quota && verdict)) {
    retryable = verdict;
    // The server knows better than the status: a "retry me" 409 or 404 is transient, not permanent.
    if (verdict && (cls === 'permanent' || cls === 'validation')) cls = 'transient';
  }
  let retryAfter: number | null = null;
  if (retryable) {
    retryAfter = headers.retryAfter ?? body.retryAfter ?? null;
    if (retryAfter === null && cls === 'rate_limit')
      retryAfter = rateLimitResetSeconds(headers.relevant, ctx?.nowMs);
  }

  // The message usually also sits in the body: redact it once and let the raw copy reuse it.
  // raw is assembled from parts that are already safe (a number, the redacted header allowlist,
  // the body through toRaw), so the envelope does not walk them a second time.
  const known: KnownText | undefined =
    message === undefined
      ? undefined
      : { text: message, redacted: redactedHead(message, RAW_LIMITS.maxStringChars) };
  const rawBody =
    view.json !== undefined
      ? toRaw(view.json, known)
      : view.text !== undefined
        ? rawText(view.text, known)
        : null;
  return buildEnvelope(
    {
      class: cls,
      source: ctx?.source ?? 'http',
      code: code ?? String(status),
      message: known ? truncate(known.redacted, MAX_MESSAGE_CHARS) : statusMessage(status),
      retryable,
      retryAfter,
      correlationId: ctx?.correlationId ?? '',
    },
    { status, headers: rawHeaders(headers.relevant), body: rawBody },
    true,
  );
}

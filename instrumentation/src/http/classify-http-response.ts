import { buildEnvelope, MAX_MESSAGE_CHARS } from '../envelope.js';
import { boundedText, type KnownText, RAW_LIMITS, redactedHead, toRaw, truncate } from '../raw.js';
import type { ClassifyContext, Envelope, ErrorClass, HttpResponseLike } from '../types.js';
import { HeaderReader, retryAfterFrom } from './headers.js';
import { rawHeaders } from './http-raw.js';
import { awsErrorName, jsonBodySignal } from './json-body-signal.js';
import { classFromMessage, mentionsExhaustedQuota, mentionsRateLimit } from './message-class.js';
import { rateLimitExhausted, rateLimitResetSeconds } from './rate-limit-headers.js';
import { type BodyView, readBody } from './read-body.js';
import { applyCode, newSignal, type Signal } from './signal.js';
import { classForStatus, restatesStatus, statusMessage } from './status-class.js';
import { textBodySignal } from './text-body-signal.js';

/** Options beyond the shared ClassifyContext: a clock, so date-based waits are testable. */
export interface HttpClassifyContext extends ClassifyContext {
  /** Milliseconds since the epoch used to turn HTTP-dates and reset epochs into seconds. */
  nowMs?: number;
}

function readStatus(res: HttpResponseLike): number {
  if (res === null || typeof res !== 'object') {
    throw new TypeError(
      `classifyHttpResponse: expected an object like { status, headers?, body? }; got ${res === null ? 'null' : typeof res}`,
    );
  }
  const raw =
    (res as { status?: unknown; statusCode?: unknown }).status ??
    (res as { statusCode?: unknown }).statusCode;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 100 || raw > 999) {
    throw new TypeError(
      `classifyHttpResponse: status must be an integer HTTP status code between 100 and 999 (pass response.status or IncomingMessage.statusCode); got ${JSON.stringify(raw)}`,
    );
  }
  return raw;
}

/** `true` / `false` in X-Should-Retry or Stripe-Should-Retry; `undefined` when absent or anything else. */
function shouldRetryHeader(h: HeaderReader): boolean | undefined {
  const v = h.get('x-should-retry') ?? h.get('stripe-should-retry');
  if (v === undefined) return undefined;
  const s = v.trim().toLowerCase();
  return s === 'true' ? true : s === 'false' ? false : undefined;
}

/** Vendor codes sent as headers: AWS `x-amzn-errortype` / `x-amzn-query-error`, Azure `x-ms-error-code`. */
function headerCodes(sig: Signal, h: HeaderReader, status: number): void {
  const amzn = h.get('x-amzn-errortype');
  if (amzn !== undefined) applyCode(sig, awsErrorName(amzn));
  const query = h.get('x-amzn-query-error');
  if (query !== undefined) applyCode(sig, query.split(';')[0]);
  const ms = h.get('x-ms-error-code');
  if (ms !== undefined) applyCode(sig, ms, !restatesStatus(ms, status));
}

const MAX_RAW_TEXT = 2048;

/** A text body for raw; a one-line body is usually the message itself, already redacted. */
function rawText(text: string, known: KnownText | undefined): string {
  // Both redact the whole string when it is this short, so the message's redaction is reusable.
  if (known !== undefined && known.text === text && text.length <= RAW_LIMITS.maxStringChars * 4)
    return truncate(known.redacted, MAX_RAW_TEXT);
  return boundedText(text, MAX_RAW_TEXT);
}

const NO_BODY: BodyView = {};

/** A caller-built body may hold getters or Proxies that throw: such a body says nothing, the status still does. */
function safeReadBody(body: unknown, failing: boolean): BodyView {
  try {
    return readBody(body, failing);
  } catch {
    return NO_BODY;
  }
}

function bodySignal(view: BodyView, status: number): Signal | undefined {
  try {
    if (view.json !== undefined) return jsonBodySignal(view.json, status);
    return view.text !== undefined ? textBodySignal(view.text) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Classifies an HTTP response into an envelope, or `null` when it is not a failure. The body
 * and headers are read before the status, because vendors put the real answer there: a 200
 * whose body says `ok: false`, a 403 that is a rate limit, a 429 that is an exhausted bill,
 * an AWS throttle on a 400. A server's explicit retry verdict beats every inference.
 */
export function classifyHttpResponse(res: HttpResponseLike, ctx?: HttpClassifyContext): Envelope | null {
  const status = readStatus(res);
  const failing = status >= 400;
  const view = safeReadBody(res.body, failing);
  let sig = bodySignal(view, status);
  if (!failing && sig?.failure !== true) return null;

  const h = new HeaderReader(res.headers);
  if (failing) {
    sig ??= newSignal(true);
    if (sig.cls === undefined) headerCodes(sig, h, status);
  }
  const s = sig as Signal;
  let cls: ErrorClass | undefined = s.cls;
  if (cls === undefined && (status === 403 || status === 400 || !failing)) {
    // A 403 carrying Retry-After is GitHub's secondary rate limit even when the body says nothing.
    if (
      rateLimitExhausted(h) ||
      (s.message !== undefined && mentionsRateLimit(s.message)) ||
      (status === 403 && h.get('retry-after') !== undefined)
    )
      cls = 'rate_limit';
  }
  // A bill said in words under a validation status (Anthropic's 400 "credit balance is too low").
  if (
    (cls === undefined || cls === 'validation') &&
    s.message !== undefined &&
    mentionsExhaustedQuota(s.message)
  ) {
    cls = 'permanent';
    s.quota = true;
  }
  if (cls === undefined) {
    cls = failing
      ? (classForStatus(status) as ErrorClass)
      : (s.message && classFromMessage(s.message)) || 'permanent';
  }

  let retryable = cls === 'rate_limit' || cls === 'transient';
  if (s.quota) retryable = false;
  const verdict = shouldRetryHeader(h) ?? s.retryable;
  if (verdict !== undefined && !(s.quota && verdict)) {
    retryable = verdict;
    // The server knows better than the status: a "retry me" 409 or 404 is transient, not permanent.
    if (verdict && (cls === 'permanent' || cls === 'validation')) cls = 'transient';
  }

  let retryAfter: number | null = null;
  if (retryable) {
    const nowMs = ctx?.nowMs; // undefined: the clock is read only if a date or epoch needs it
    retryAfter = retryAfterFrom((name) => h.get(name), nowMs) ?? s.retryAfter ?? null;
    if (retryAfter === null && cls === 'rate_limit') retryAfter = rateLimitResetSeconds(h, nowMs);
  }

  // The message usually also sits in the body: redact it once and let the raw copy reuse it.
  // raw is assembled from parts that are already safe (a number, the redacted header allowlist,
  // the body through toRaw), so the envelope does not walk them a second time.
  const known: KnownText | undefined =
    s.message === undefined
      ? undefined
      : { text: s.message, redacted: redactedHead(s.message, RAW_LIMITS.maxStringChars) };
  const body =
    view.json !== undefined
      ? toRaw(view.json, known)
      : view.text !== undefined
        ? rawText(view.text, known)
        : null;
  return buildEnvelope(
    {
      class: cls,
      source: ctx?.source ?? 'http',
      code: s.code ?? String(status),
      message: known ? truncate(known.redacted, MAX_MESSAGE_CHARS) : statusMessage(status),
      retryable,
      retryAfter,
      correlationId: ctx?.correlationId ?? '',
    },
    { status, headers: rawHeaders(h), body },
    true,
  );
}

import type { Envelope, ErrorClass, JsonValue } from '../types.js';
import { allowedRetryAfter } from './allowed-retry-after.js';
import { defaultRetryable, ERROR_CLASSES, isErrorClass } from './error-classes.js';
import { boundedText, type KnownText, knownText, toRaw, truncate } from './to-raw.js';

/** Upper bound of `message`, in characters: enough for a vendor's sentence, small enough per span. */
export const MAX_MESSAGE_CHARS = 512;

export interface EnvelopeInit {
  class: ErrorClass;
  /** Low-cardinality kind of tool: `http`, `db`, `sdk`, `rpc`, `network`. */
  source: string;
  code: string;
  message: string;
  /** Defaults from the class: rate_limit and transient are retryable, the others are not. */
  retryable?: boolean;
  /** Seconds; kept only when retryable and a finite number >= 0. */
  retryAfter?: number | null;
  correlationId?: string;
  /** Any value: copied through toRaw (redacted, bounded, JSON-safe). */
  raw?: unknown;
}

/**
 * Builds an envelope that obeys the contract whatever the adapter passed: a known class,
 * retry_after only beside retryable, message redacted and bounded, correlation_id a string.
 * An unknown class is a programming error in an adapter, so it throws with the valid set.
 */
export function createEnvelope(init: EnvelopeInit): Envelope {
  return createEnvelopeKnowing(init, sharedMessage(init.message));
}

/**
 * A strict KnownText of a message short enough that boundedText redacts it whole, or `undefined`:
 * error messages usually also sit in raw (`raw.message`), so one redaction serves both.
 */
export function sharedMessage(message: unknown): KnownText | undefined {
  return typeof message === 'string' && message.length <= MAX_MESSAGE_CHARS * 4
    ? knownText(message)
    : undefined;
}

/** createEnvelope with the message's redaction already at hand (from sharedMessage). Internal. */
export function createEnvelopeKnowing(init: EnvelopeInit, known: KnownText | undefined): Envelope {
  if (known === undefined || known.text !== init.message) return buildEnvelope(init, toRaw(init.raw), false);
  return buildEnvelope(init, toRaw(init.raw, known), false, truncate(known.redacted, MAX_MESSAGE_CHARS));
}

/**
 * The rules of createEnvelope for adapters that already hold a safe `raw` (built from toRaw and
 * redacted parts) and, when `trustedMessage`, a message they composed themselves (a status
 * reason phrase), so the hot path does not copy or scan the same data twice. Internal.
 */
export function buildEnvelope(
  init: Omit<EnvelopeInit, 'raw'>,
  raw: JsonValue,
  trustedMessage: boolean,
  redactedMessage?: string,
): Envelope {
  if (!isErrorClass(init.class)) {
    throw new TypeError(
      `createEnvelope: class must be one of ${ERROR_CLASSES.join(', ')}; got ${JSON.stringify(init.class)}`,
    );
  }
  const retryable = typeof init.retryable === 'boolean' ? init.retryable : defaultRetryable(init.class);
  const message = typeof init.message === 'string' ? init.message : String(init.message ?? '');
  return {
    class: init.class,
    source: typeof init.source === 'string' && init.source !== '' ? init.source : 'unknown',
    code: typeof init.code === 'string' ? init.code : String(init.code ?? ''),
    message:
      redactedMessage !== undefined
        ? redactedMessage
        : trustedMessage && message.length <= MAX_MESSAGE_CHARS
          ? message
          : boundedText(message, MAX_MESSAGE_CHARS),
    retryable,
    retry_after: allowedRetryAfter(retryable, init.retryAfter),
    correlation_id: typeof init.correlationId === 'string' ? init.correlationId : '',
    raw,
  };
}

import { sharedMessage } from '../envelope/create-envelope.js';
import { type KnownText, toRaw } from '../envelope/to-raw.js';
import type { JsonValue } from '../types.js';
import { constructorName, isObjectLike, readString } from './safe-read.js';

/**
 * What anything thrown looks like to a reader (the idea of Sentry's eventFromUnknownInput):
 * Errors keep their name and message; a plain object says which keys it had, or its own
 * `message`; primitives are printed. Never throws, whatever the value's getters or traps do.
 */
export interface NormalizedUnknown {
  /** Error name, or the kind of value thrown ("string", "object", "null"). */
  name: string;
  message: string;
  /** A depth-limited, circular-safe, redacted copy of the original. */
  raw: JsonValue;
  /** The message's redaction when raw reused it (see sharedMessage), for the envelope to reuse too. */
  known?: KnownText;
}

const MAX_KEYS_IN_MESSAGE = 8;

function safeKeys(value: object): string[] {
  try {
    return Object.keys(value);
  } catch {
    return [];
  }
}

function describeObject(value: object): string {
  const keys = safeKeys(value).slice(0, MAX_KEYS_IN_MESSAGE + 1);
  const shown = keys.slice(0, MAX_KEYS_IN_MESSAGE).join(', ');
  const kind = constructorName(value) ?? 'Object';
  if (keys.length === 0) return `${kind} captured as exception with no keys`;
  return `${kind} captured as exception with keys: ${shown}${keys.length > MAX_KEYS_IN_MESSAGE ? ', …' : ''}`;
}

function printPrimitive(value: unknown): string {
  try {
    return String(value);
  } catch {
    return '[Unprintable]';
  }
}

export function normalizeUnknown(value: unknown): NormalizedUnknown {
  if (value === null || value === undefined) {
    return { name: String(value), message: `${String(value)} was thrown instead of an Error`, raw: null };
  }
  if (!isObjectLike(value)) {
    const text = printPrimitive(value);
    const message = text === '' ? `empty ${typeof value} thrown` : text;
    // A thrown string is both the message and raw: redact it once.
    const known = typeof value === 'string' ? sharedMessage(message) : undefined;
    return { name: typeof value, message, raw: toRaw(value, known), known };
  }
  const message = readString(value, 'message');
  const name = readString(value, 'name') ?? constructorName(value) ?? 'Object';
  // An Error's message is also its raw copy's `message`: redact it once.
  const known = message !== undefined && message !== '' ? sharedMessage(message) : undefined;
  return {
    name,
    message:
      message !== undefined && message !== ''
        ? message
        : value instanceof Error
          ? name
          : describeObject(value),
    raw: toRaw(value, known),
    known,
  };
}

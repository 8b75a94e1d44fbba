import type { HttpResponseLike } from '../types.js';

/** The status of a response: `status` (fetch) or `statusCode` (IncomingMessage), an integer 100–999. */
export function readStatus(res: HttpResponseLike): number {
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

/** Bytes of a body that are decoded at most: error bodies are small, and raw keeps only a few KiB. */
export const MAX_BODY_BYTES = 64 * 1024;

export interface BodyView {
  /** The body as a JSON value (already parsed by the caller, or parsed here). */
  json?: unknown;
  /** The body as text when it is not JSON. */
  text?: string;
}

const EMPTY: BodyView = Object.freeze({});

/**
 * Whether the text holds one of the markers without which a 2xx JSON text cannot report a
 * failure (`"ok"`, `"error`, `"errors"`, `"success"`, `"status"`, `"__type"`, `"code"`), so
 * other texts are not parsed at all. One pass over the quotes, since one indexOf per marker
 * costs more than the parse it saves on short bodies.
 */
function mayReportFailure(text: string): boolean {
  for (let i = text.indexOf('"'); i >= 0; i = text.indexOf('"', i + 1)) {
    switch (text.charCodeAt(i + 1)) {
      case 111 /* o */:
        if (text.startsWith('"ok"', i)) return true;
        break;
      case 101 /* e */:
        if (text.startsWith('"error', i)) return true;
        break;
      case 115 /* s */:
        if (text.startsWith('"success"', i) || text.startsWith('"status"', i)) return true;
        break;
      case 95 /* _ */:
        if (text.startsWith('"__type"', i)) return true;
        break;
      case 99 /* c */:
        if (text.startsWith('"code"', i)) return true;
        break;
    }
  }
  return false;
}

function decode(bytes: Uint8Array): string {
  const view = bytes.byteLength > MAX_BODY_BYTES ? bytes.subarray(0, MAX_BODY_BYTES) : bytes;
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString('utf8');
}

/** A stream, Blob or body-used marker cannot be read synchronously; such bodies are left alone. */
function isUnreadable(body: object): boolean {
  const b = body as { getReader?: unknown; pipe?: unknown; arrayBuffer?: unknown; on?: unknown };
  return (
    typeof b.getReader === 'function' || typeof b.pipe === 'function' || typeof b.arrayBuffer === 'function'
  );
}

/**
 * Turns whatever the caller holds as a body into JSON or text. A JSON string is parsed only
 * when it can matter: on a failing status, or on a 2xx whose text holds a failure marker. A
 * caller-built body may hold getters or Proxies that throw: such a body says nothing, the status
 * still does.
 */
export function readBody(body: unknown, failingStatus: boolean): BodyView {
  try {
    return viewOf(body, failingStatus);
  } catch {
    return EMPTY;
  }
}

function viewOf(body: unknown, failingStatus: boolean): BodyView {
  let text: string;
  if (typeof body === 'string') text = body.length > MAX_BODY_BYTES ? body.slice(0, MAX_BODY_BYTES) : body;
  else if (body === null || typeof body !== 'object') return EMPTY;
  else if (body instanceof Uint8Array) text = decode(body);
  else if (body instanceof ArrayBuffer) text = decode(new Uint8Array(body));
  else if (isUnreadable(body)) return EMPTY;
  else return { json: body };
  let i = 0;
  while (i < text.length && text.charCodeAt(i) <= 32) i++;
  const first = text.charCodeAt(i);
  if ((first === 123 /* { */ || first === 91) /* [ */ && (failingStatus || mayReportFailure(text))) {
    try {
      return { json: JSON.parse(text) };
    } catch {
      // Not JSON after all (or cut at MAX_BODY_BYTES): keep it as text.
    }
  }
  return { text };
}

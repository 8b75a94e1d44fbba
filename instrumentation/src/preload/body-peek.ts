import type { IncomingMessage } from 'node:http';

/**
 * Only bodies that are JSON and declare a small length are inspected: streams, chunked and large
 * responses pass untouched, so silent-failure detection never costs a big buffer or a delay.
 */
export function isPeekable(
  contentType: string | undefined,
  contentLength: string | number | undefined,
  maxBytes: number,
): boolean {
  // Length first: it is one number compare, and most successes fail it or the type check anyway.
  if (contentLength === undefined || contentType === undefined) return false;
  const length = typeof contentLength === 'number' ? contentLength : Number(contentLength);
  if (!(length > 0 && length <= maxBytes) || !Number.isInteger(length)) return false;
  return JSON_TYPE.test(contentType);
}

/**
 * `application/json`, any `+json` suffix (problem+json, vnd.api+json) and AWS's JSON protocols
 * (`application/x-amz-json-1.0` / `-1.1`), whose 400s carry the error name (ThrottlingException)
 * only in the body.
 */
const JSON_TYPE = /^\s*application\/(?:[\w.+-]+\+json|json|x-amz-json-1\.[01])\s*(?:;|$)/i;

/**
 * Copies the chunks of a node:http response as the parser hands them to the stream. Wrapping the
 * instance's `push` neither adds a 'data' listener nor switches the stream to flowing mode, so the
 * application reads the body exactly as it would without the preload.
 */
export function peekIncomingMessage(response: IncomingMessage, maxBytes: number): () => unknown {
  const chunks: Buffer[] = [];
  let size = 0;
  const push = response.push;
  response.push = function peekingPush(this: IncomingMessage, chunk: unknown, encoding?: BufferEncoding) {
    if (chunk !== null && size < maxBytes) {
      try {
        const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk), encoding);
        chunks.push(buf);
        size += buf.length;
      } catch {
        // A chunk we cannot copy only costs the peek, never the application's read.
      }
    }
    return push.call(this, chunk, encoding);
  } as typeof response.push;
  return () => {
    if (size === 0) return undefined;
    const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
    // Decoded once; the marker test and the parse both read this string.
    const text = bytes.toString('utf8', 0, Math.min(bytes.length, maxBytes));
    return mayCarryError(text) ? parseJson(text) : undefined;
  };
}

/**
 * Every error marker the body classifier reads (`error`, `errors`, `"ok": false`, `"success":
 * false`, a failed `status`, `isError`, AWS `__type`, a Kubernetes `Failure`) matches this, so a
 * body that does not is a success: skipping the parse keeps the common path cheap.
 */
const ERROR_MARKER = /error|"(ok|success)"\s*:\s*false|status|fail|__type/i;

export function mayCarryError(bytes: Uint8Array | string): boolean {
  return ERROR_MARKER.test(typeof bytes === 'string' ? bytes : view(bytes).toString('latin1'));
}

/** A Buffer over the same memory: Buffer.from(Uint8Array) would copy it. */
function view(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Parsed JSON, or undefined when the bytes are incomplete or not JSON. */
export function parseJson(bytes: Uint8Array | string): unknown {
  try {
    return JSON.parse(typeof bytes === 'string' ? bytes : view(bytes).toString('utf8'));
  } catch {
    return undefined;
  }
}

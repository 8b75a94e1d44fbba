/**
 * Which response bodies are peeked for silent failures, and how a peeked copy is read. JSON only:
 * that is where a `200 {"ok":false}` hides. The length is a bound, not a requirement: a chunked
 * body (no Content-Length, what res.write/res.end produce) is peeked too, and the bound is then
 * applied to the bytes that actually arrive (see BodyCopy).
 */
export function isPeekable(
  contentType: string | undefined,
  contentLength: string | number | undefined,
  maxBytes: number,
): boolean {
  if (contentType === undefined) return false;
  if (contentLength !== undefined) {
    // One number compare rejects a declared large body before the type is even looked at.
    const length = typeof contentLength === 'number' ? contentLength : Number(contentLength);
    if (!(length > 0 && length <= maxBytes) || !Number.isInteger(length)) return false;
  }
  return JSON_TYPE.test(contentType);
}

/**
 * isPeekable over a raw header list (name, value, name, value…: node:http's `rawHeaders` strings
 * or undici's Buffers), without building a header record for every response: node:http builds
 * `IncomingMessage.headers` lazily, and nothing else reads it for a success. The first
 * Content-Type and Content-Length count, as node:http keeps them. With `refuseEncoded`, a body with
 * a Content-Encoding is not peeked (node:http hands the application the bytes as sent; fetch
 * decodes them first).
 */
export function isPeekableRaw(
  raw: readonly (Buffer | string)[],
  maxBytes: number,
  refuseEncoded: boolean,
): boolean {
  let type: string | undefined;
  let length: string | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as Buffer | string;
    const n = name.length;
    if (n !== 12 && n !== 14 && (n !== 16 || !refuseEncoded)) continue;
    const lower = String(name).toLowerCase();
    if (lower === 'content-type') type ??= String(raw[i + 1]);
    else if (lower === 'content-length') length ??= String(raw[i + 1]);
    else if (refuseEncoded && lower === 'content-encoding') return false;
  }
  return isPeekable(type, length, maxBytes);
}

/**
 * `application/json`, any `+json` suffix (problem+json, vnd.api+json) and AWS's JSON protocols
 * (`application/x-amz-json-1.0` / `-1.1`), whose 400s carry the error name (ThrottlingException)
 * only in the body.
 */
const JSON_TYPE = /^\s*application\/(?:[\w.+-]+\+json|json|x-amz-json-1\.[01])\s*(?:;|$)/i;

/**
 * Under a status below 400, a body reports a failure (jsonBodyFindings's `failure`) only through a
 * key or value holding `error` (`error`, `errors`, `isError`, `errorCode`, a JSON-RPC error, a
 * JSend `"status": "error"`), `fail` (`"status": "failed"`, a Kubernetes `Failure`), AWS `__type`,
 * `"ok": false` or `"success": false`. A bare `status` key is not one: every failed status value
 * holds `error` or `fail`, and success bodies often carry a `status` ("active", "settled") that
 * would send each of them through a parse and a classification for nothing.
 */
const SILENT_FAILURE = String.raw`error|fail|__type|"(ok|success)"\s*:\s*false`;
const SILENT_FAILURE_MARKER = new RegExp(SILENT_FAILURE, 'i');
/**
 * Under a failing status, every marker the body classifier reads: the above, and a `status`
 * (a failed status code or category in the body), so a body without any is not parsed.
 */
const ERROR_MARKER = new RegExp(`${SILENT_FAILURE}|status`, 'i');

/** Whether a peeked body may say the call failed: `success` is true under a status below 400. */
export function mayCarryError(bytes: Uint8Array | string, success = false): boolean {
  const text = typeof bytes === 'string' ? bytes : view(bytes).toString('latin1');
  return (success ? SILENT_FAILURE_MARKER : ERROR_MARKER).test(text);
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

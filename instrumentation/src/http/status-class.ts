import type { ErrorClass } from '../types.js';
import { normalizeCode } from './vendor-codes.js';

/**
 * The HTTP table: what a bare status means when nothing more specific was sent. It follows the
 * issue's table literally — 400/422 validation, 401/403 authentication, 429 rate_limit, 408 and
 * 5xx transient, every other 4xx and 501 permanent — plus the few statuses whose RFC defines a
 * credential failure (407, 511) and 5xx that mean "never again" (version, loops, TLS config).
 * Body and header signals, read first, refine the 4xx that are not really permanent.
 */
const TABLE = new Map<number, ErrorClass>([
  [400, 'validation'],
  [401, 'authentication'],
  [403, 'authentication'],
  [407, 'authentication'], // proxy credentials (RFC 9110 §15.5.8)
  [408, 'transient'],
  [422, 'validation'],
  [429, 'rate_limit'],
  [501, 'permanent'],
  [505, 'permanent'], // HTTP version not supported
  [506, 'permanent'], // variant also negotiates: a server configuration fault
  [507, 'permanent'], // insufficient storage: not fixed by a retry loop
  [508, 'permanent'], // loop detected
  [509, 'rate_limit'], // bandwidth limit exceeded (cPanel, Apache)
  [510, 'permanent'], // not extended
  [511, 'authentication'], // network authentication required (RFC 6585 §6, captive portals)
  [525, 'permanent'], // Cloudflare: SSL handshake with the origin failed — configuration
  [526, 'permanent'], // Cloudflare: invalid origin certificate
]);

/** Class of a failing status; `null` for 1xx–3xx, which are not failures by status alone. */
export function classForStatus(status: number): ErrorClass | null {
  if (status < 400) return null;
  const cls = TABLE.get(status);
  if (cls !== undefined) return cls;
  return status < 500 ? 'permanent' : 'transient';
}

const REASONS = new Map<number, string>([
  [400, 'Bad Request'],
  [401, 'Unauthorized'],
  [402, 'Payment Required'],
  [403, 'Forbidden'],
  [404, 'Not Found'],
  [405, 'Method Not Allowed'],
  [406, 'Not Acceptable'],
  [407, 'Proxy Authentication Required'],
  [408, 'Request Timeout'],
  [409, 'Conflict'],
  [410, 'Gone'],
  [411, 'Length Required'],
  [412, 'Precondition Failed'],
  [413, 'Content Too Large'],
  [414, 'URI Too Long'],
  [415, 'Unsupported Media Type'],
  [416, 'Range Not Satisfiable'],
  [417, 'Expectation Failed'],
  [421, 'Misdirected Request'],
  [422, 'Unprocessable Content'],
  [423, 'Locked'],
  [424, 'Failed Dependency'],
  [425, 'Too Early'],
  [426, 'Upgrade Required'],
  [428, 'Precondition Required'],
  [429, 'Too Many Requests'],
  [431, 'Request Header Fields Too Large'],
  [451, 'Unavailable For Legal Reasons'],
  [499, 'Client Closed Request'],
  [500, 'Internal Server Error'],
  [501, 'Not Implemented'],
  [502, 'Bad Gateway'],
  [503, 'Service Unavailable'],
  [504, 'Gateway Timeout'],
  [505, 'HTTP Version Not Supported'],
  [507, 'Insufficient Storage'],
  [508, 'Loop Detected'],
  [511, 'Network Authentication Required'],
  [520, 'Web Server Returned an Unknown Error'],
  [521, 'Web Server Is Down'],
  [522, 'Connection Timed Out'],
  [523, 'Origin Is Unreachable'],
  [524, 'A Timeout Occurred'],
  [529, 'Site Is Overloaded'],
  [598, 'Network Read Timeout'],
  [599, 'Network Connect Timeout'],
]);

const MESSAGES = new Map<number, string>();

/** `HTTP 503 Service Unavailable`: the message when the response carried no text of its own. */
export function statusMessage(status: number): string {
  let m = MESSAGES.get(status);
  if (m === undefined) {
    const reason = REASONS.get(status);
    m = reason === undefined ? `HTTP ${status}` : `HTTP ${status} ${reason}`;
    if (MESSAGES.size < 1000) MESSAGES.set(status, m);
  }
  return m;
}

/** REASONS normalized once, since restatesStatus compares against them on most failures. */
const NORMALIZED_REASONS = new Map<number, string>();
for (const [status, reason] of REASONS) NORMALIZED_REASONS.set(status, normalizeCode(reason));

/** A vendor code that only restates the status (`TooManyRequests` on a 429, `"404"`) adds nothing. */
export function restatesStatus(code: string, status: number): boolean {
  if (code === String(status)) return true;
  const reason = NORMALIZED_REASONS.get(status);
  return reason !== undefined && normalizeCode(code) === reason;
}

import { redactText } from '../redact.js';
import type { HeaderReader } from './headers.js';

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
export function rawHeaders(h: HeaderReader): Record<string, string> {
  const out: Record<string, string> = {};
  const n = h.size();
  for (let i = 0; i < n; i++) {
    const v = h.valueAt(i);
    out[h.nameAt(i)] = PLAIN_VALUES.has(v) ? v : redactText(v.length > 256 ? v.slice(0, 256) : v);
  }
  return out;
}

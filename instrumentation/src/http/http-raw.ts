import { redactText } from '../redact.js';
import type { HeaderReader } from './headers.js';

/** The redacted subset of response headers stored in `raw.headers`. */
export function rawHeaders(h: HeaderReader): Record<string, string> {
  const out: Record<string, string> = {};
  const n = h.size();
  for (let i = 0; i < n; i++) {
    const v = h.valueAt(i);
    out[h.nameAt(i)] = redactText(v.length > 256 ? v.slice(0, 256) : v);
  }
  return out;
}

import { redactText } from '../redact.js';
import type { HeaderReader } from './headers.js';

/** The redacted subset of response headers stored in `raw.headers`. */
export function rawHeaders(h: HeaderReader): Record<string, string> {
  const out: Record<string, string> = {};
  const picked = h.relevant();
  for (const name in picked) {
    const v = picked[name] as string;
    out[name] = redactText(v.length > 256 ? v.slice(0, 256) : v);
  }
  return out;
}

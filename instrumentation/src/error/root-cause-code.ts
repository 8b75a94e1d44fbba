import { classifyNodeCode } from './classify-node-system-error.js';
import { isObjectLike, read, readString } from './safe-read.js';

/**
 * The system error code under an SDK's wrapper: Stripe keeps the socket error in `detail`,
 * Stainless SDKs (OpenAI, Anthropic) in `cause` (often a `TypeError: fetch failed` whose own cause
 * holds it), got and ky in `cause`, Node's happy-eyeballs connect in an AggregateError's `errors`.
 * This is the last step of the one code rule: the vendor's code, else the HTTP status, else this;
 * never the SDK's class name, so one refused connection groups under one code whichever client met it.
 */

const WRAPPED_IN = ['cause', 'detail', 'originalError', 'error'] as const;
const MAX_DEPTH = 6;

/** A code Node, libuv, OpenSSL or undici raise (ECONNREFUSED, CERT_HAS_EXPIRED, UND_ERR_SOCKET). */
export function isSystemCode(code: string): boolean {
  return code.startsWith('UND_ERR_') || classifyNodeCode(code) !== undefined;
}

/** The first system code found walking the wrappers down from `err`; `undefined` when there is none. */
export function rootSystemCode(err: unknown): string | undefined {
  const seen: unknown[] = [];
  const walk = (value: unknown, depth: number): string | undefined => {
    if (!isObjectLike(value) || depth > MAX_DEPTH || seen.includes(value)) return undefined;
    seen.push(value);
    const code = readString(value, 'code');
    if (code !== undefined && isSystemCode(code)) return code;
    for (const key of WRAPPED_IN) {
      const found = walk(read(value, key), depth + 1);
      if (found !== undefined) return found;
    }
    const errors = read(value, 'errors');
    if (Array.isArray(errors)) {
      for (const item of errors.slice(0, 8)) {
        const found = walk(item, depth + 1);
        if (found !== undefined) return found;
      }
    }
    return undefined;
  };
  return walk(err, 0);
}

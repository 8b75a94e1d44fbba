import type { Envelope, ErrorClass } from '../types.js';
import { read } from './safe-read.js';

/**
 * What a family classifier concludes about one error. The dispatcher turns it into an Envelope
 * through createEnvelope, which owns the envelope rules (retryable defaults, redaction, bounds).
 */
export interface Verdict {
  class: ErrorClass;
  /** Most specific stable code; each family documents its rule in the README. */
  code: string;
  /** The family's default source; `ctx.source` wins when the caller gives one. */
  source: string;
  /** Set only when the family composes a better message than `err.message`. */
  message?: string;
  /** Set only for an explicit signal (server header, driver flag); otherwise derived from class. */
  retryable?: boolean;
  retryAfter?: number | null;
  /** Selected source fields (flat, cheap); createEnvelope redacts and caps them. */
  raw: Record<string, unknown>;
  /**
   * The envelope classifyHttpResponse already built for an embedded response: the dispatcher
   * patches it (source, code, message) instead of building and redacting a second one.
   */
  http?: Envelope;
}

/** Copies the primitive-valued fields among `keys`: cheap, and never drags in sockets or bodies. */
export function pick(err: unknown, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const v = read(err, key);
    if (v === undefined || v === null) continue;
    const t = typeof v;
    if (t === 'string' || t === 'number' || t === 'boolean') out[key] = v;
  }
  return out;
}

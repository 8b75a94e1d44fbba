import { readString } from './safe-read.js';
import type { Verdict } from './verdict.js';

/**
 * A connection pool that could not hand out a connection in time: every connection was busy, or
 * the pool could not open a new one. A wait that ran out is transient (connections come back);
 * the call never reached the server. generic-pool (used by many drivers and ORMs) rejects
 * `acquire()` with its own `TimeoutError` "ResourceRequest timed out" (lib/ResourceRequest.js);
 * tarn (Knex) with `TimeoutError` "operation timed out" is read by name elsewhere; mysql's pool
 * codes (POOL_ENQUEUELIMIT) by the MySQL family. Code rule: POOL_ACQUIRE_TIMEOUT.
 * Source: whatever the caller's ctx says (a pool serves any client); `unknown` without one.
 */
export function classifyPoolCheckout(err: unknown, name: string): Verdict | null {
  if (name !== 'TimeoutError' || readString(err, 'message') !== 'ResourceRequest timed out') return null;
  return { class: 'transient', code: 'POOL_ACQUIRE_TIMEOUT', source: 'unknown', raw: { name } };
}

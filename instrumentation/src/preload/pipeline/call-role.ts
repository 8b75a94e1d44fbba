import type { Attributes } from '@opentelemetry/api';
import { isConnectName } from '../../envelope/counted-call.js';
import type { Envelope } from '../../types.js';

// The checkout and connect span names are faultline_call_role's (sql/schema/005_functions.sql),
// kept once beside its TypeScript twin.
export { isConnectName };

/** A database connect or pool checkout span, whatever its outcome (only a success is a `checkout`). */
export function isConnectSpan(name: string | undefined, attrs: Attributes | undefined): boolean {
  return (
    name !== undefined &&
    isConnectName(name) &&
    attrs !== undefined &&
    (attrs['db.system.name'] !== undefined || attrs['db.system'] !== undefined)
  );
}

/**
 * What the transport requests of one operation span (an AWS SDK operation's HTTP attempts) said,
 * in the order they ended. Only the last two failures matter: the final attempt's and the one
 * before it (faultline.previous_* when the final attempt failed too).
 */
export interface TransportTally {
  count: number;
  last?: Envelope;
  prior?: Envelope;
  /** Whether the most recent transport request failed. */
  lastFailed: boolean;
}

/** Transport span → the operation span it belongs to. Weak keys: spans that never end cost nothing. */
const operations = new WeakMap<object, object>();
const tallies = new WeakMap<object, TransportTally>();
/** Envelopes a hook reached for a transport span (a socket error), kept off the span itself. */
const held = new WeakMap<object, Envelope>();

/** Called at start for a CLIENT span under another CLIENT span of the same operation. */
export function markTransport(span: object, operation: object): void {
  operations.set(span, operation);
}

export function isTransport(span: object): boolean {
  return operations.has(span);
}

/**
 * A transport request carries no envelope of its own: whatever a hook classified for it waits
 * here for the span's end, where it informs the operation's envelope instead. The first one wins,
 * as the cause of the failure.
 */
export function holdTransportEnvelope(span: object, envelope: Envelope): void {
  if (!held.has(span)) held.set(span, envelope);
}

export function takeHeldEnvelope(span: object): Envelope | undefined {
  const envelope = held.get(span);
  if (envelope !== undefined) held.delete(span);
  return envelope;
}

/** Files a transport request's outcome (its envelope, or null for a success) with its operation. */
export function settleTransport(span: object, envelope: Envelope | null): void {
  const operation = operations.get(span);
  if (operation === undefined) return;
  operations.delete(span);
  let tally = tallies.get(operation);
  if (tally === undefined) {
    tally = { count: 0, lastFailed: false };
    tallies.set(operation, tally);
  }
  tally.count++;
  tally.lastFailed = envelope !== null;
  if (envelope !== null) {
    tally.prior = tally.last;
    tally.last = envelope;
  }
}

/** The tally of an operation span's transport requests, once, when the operation ends. */
export function takeTransportTally(operation: object): TransportTally | undefined {
  const tally = tallies.get(operation);
  if (tally !== undefined) tallies.delete(operation);
  return tally;
}

/**
 * Codes that name no failure of their own: a bare HTTP status, or an SDK's "unknown". An operation
 * span whose envelope says only that takes its transport's more specific one (the body's
 * ThrottlingException).
 */
export function isGenericCode(code: string): boolean {
  return code === '' || /^\d+$/.test(code) || GENERIC_CODES.has(code);
}

const GENERIC_CODES = new Set(['Error', 'UnknownError', 'Unknown', 'UNKNOWN']);

import type { ErrorClass } from '../types.js';

export const ERROR_CLASSES: readonly ErrorClass[] = Object.freeze([
  'validation',
  'authentication',
  'rate_limit',
  'transient',
  'permanent',
]);

/** ERROR_CLASSES.includes without the array walk: every envelope built passes here. */
export function isErrorClass(cls: unknown): cls is ErrorClass {
  return (
    cls === 'validation' ||
    cls === 'authentication' ||
    cls === 'rate_limit' ||
    cls === 'transient' ||
    cls === 'permanent'
  );
}

/** The class's own answer to "is a retry worth it", before any source detail. */
export function defaultRetryable(cls: ErrorClass): boolean {
  return cls === 'rate_limit' || cls === 'transient';
}

/**
 * Each class with the caller's action, worded for a model reading the JSON Schema: the policy
 * travels with the shape. policy/retry-decision.ts acts on the same five.
 */
export const CLASS_ACTIONS = [
  {
    const: 'validation',
    description:
      'The request was rejected as malformed or breaking a rule. Action: repair — fix the request (see message) and send it once more; never retry it unchanged.',
  },
  {
    const: 'authentication',
    description:
      'The credential is missing, expired, revoked or lacks permission. Action: refresh once — obtain a new credential at most one time and replay; if it fails again, escalate to a person.',
  },
  {
    const: 'rate_limit',
    description:
      'The caller exceeded a rate limit. Action: wait — sleep retry_after seconds exactly when it is a number, otherwise back off exponentially with full jitter, for a small number of attempts.',
  },
  {
    const: 'transient',
    description:
      'A temporary fault (timeout, overload, unavailable, deadlock). Action: back off — retry with capped exponential backoff and full jitter; honor retry_after when present.',
  },
  {
    const: 'permanent',
    description:
      'The call as constructed will not succeed (not found, conflict, unsupported, exhausted quota). Action: replan — do not retry; choose a different approach.',
  },
] as const;

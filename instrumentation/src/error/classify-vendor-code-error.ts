import { QUOTA, vendorMeaning } from '../http/vendor-codes.js';
import type { ErrorClass } from '../types.js';
import { readString } from './safe-read.js';
import type { Verdict } from './verdict.js';

/**
 * The string-code allowlist for errors no typed family claimed: a vendor's stable code in `code`
 * or `type` (`ThrottlingException`, `RESOURCE_EXHAUSTED`, Firestore's `resource-exhausted`,
 * `invalid_grant`), looked up in the same vendor table classifyHttpResponse reads bodies with.
 * Firebase prefixes its codes with a service (`auth/too-many-requests`): the part after the
 * slash is looked up too. Code rule: the vendor's code as sent.
 */

/** Firebase Auth codes whose meaning is not the vendor table's. */
const FIREBASE_AUTH: Record<string, ErrorClass> = {
  'too-many-requests': 'rate_limit',
  'network-request-failed': 'transient',
  'internal-error': 'transient',
  'quota-exceeded': 'permanent',
};

/** Firebase Cloud Messaging: its "quota-exceeded" is a per-target send rate, not a bill. */
const FIREBASE_MESSAGING: Record<string, ErrorClass> = {
  'quota-exceeded': 'rate_limit',
  'message-rate-exceeded': 'rate_limit',
  'device-message-rate-exceeded': 'rate_limit',
  'topics-message-rate-exceeded': 'rate_limit',
  'server-unavailable': 'transient',
  'internal-error': 'transient',
  'unknown-error': 'transient',
  'invalid-argument': 'validation',
  'invalid-payload': 'validation',
  'payload-size-limit-exceeded': 'validation',
  'registration-token-not-registered': 'permanent',
  'invalid-registration-token': 'validation',
  'mismatched-credential': 'authentication',
  'authentication-error': 'authentication',
  'third-party-auth-error': 'authentication',
};

function meaningOf(code: string): ErrorClass | typeof QUOTA | undefined {
  const direct = vendorMeaning(code);
  if (direct !== undefined) return direct;
  const slash = code.indexOf('/');
  if (slash <= 0 || slash === code.length - 1) return undefined;
  const service = code.slice(0, slash);
  const rest = code.slice(slash + 1);
  if (service === 'auth') return FIREBASE_AUTH[rest] ?? 'authentication';
  if (service === 'messaging') return FIREBASE_MESSAGING[rest] ?? vendorMeaning(rest);
  return vendorMeaning(rest);
}

export function classifyVendorCodeError(err: unknown, name: string): Verdict | null {
  for (const key of ['code', 'type'] as const) {
    const code = readString(err, key);
    if (code === undefined || code.length > 80) continue;
    const meaning = meaningOf(code);
    if (meaning === undefined) continue;
    if (meaning === QUOTA) {
      // An exhausted quota or bill: waiting inside a retry loop will not fix it.
      return { class: 'permanent', code, source: 'sdk', retryable: false, raw: { name, [key]: code } };
    }
    return { class: meaning, code, source: 'sdk', raw: { name, [key]: code } };
  }
  return null;
}

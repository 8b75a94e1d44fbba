import {
  ATTR_ATTEMPTS,
  ATTR_CALL_ROLE,
  ATTR_CLASS,
  ATTR_PROPAGATED,
  ATTR_SOURCE,
} from './attribute-names.js';
import { storedText } from './stored-text.js';

/**
 * The TypeScript twins of the counting rules in sql/schema/005_functions.sql, for the preload's
 * exact in-process counts (count-metrics.ts): each function here is the SQL function it names, over
 * the same attributes, so a call counted in process is the call the rollups count from its span
 * (parity: sql/test/counting/counting-rules-parity.test.ts). Change them together. `errorStatus`
 * stands for SQL's `status IN ('Error', 'STATUS_CODE_ERROR')`.
 */
type Attrs = Readonly<Record<string, unknown>>;

/**
 * Span names of pool checkouts and connection establishment, as the Node.js instrumentations emit
 * them (instrumentation-pg `pg-pool.connect`/`pg.connect`, instrumentation-ioredis `connect`,
 * instrumentation-redis `redis-connect`, instrumentation-mysql `mysql.connect`; mysql2 and tedious
 * make no connect span): faultline_call_role's list.
 */
const CONNECT_NAMES = new Set(['pg-pool.connect', 'pg.connect', 'connect', 'redis-connect', 'mysql.connect']);

export function isConnectName(name: string): boolean {
  return CONNECT_NAMES.has(name);
}

/** faultline_span_kind: 'SPAN_KIND_CLIENT' (older exporters) reads as 'Client'. */
export function spanKindName(kind: string): string {
  if (!kind.startsWith('SPAN_KIND_')) return kind;
  const rest = kind.slice('SPAN_KIND_'.length);
  // initcap: the first letter of each word upper case, the rest lower (the kinds are one word).
  return rest
    .toLowerCase()
    .replace(/(^|[^a-z0-9])([a-z])/g, (_, sep: string, c: string) => sep + c.toUpperCase());
}

/** faultline_failed: a classified envelope, or an Error status on a span nobody classified. */
export function isFailedSpan(attrs: Attrs, errorStatus: boolean): boolean {
  return storedText(attrs[ATTR_CLASS]) !== '' || errorStatus;
}

/**
 * faultline_call_role: '' for a logical call, 'transport' for a request inside another call,
 * 'checkout' for a pool checkout or a connect that succeeded (by its name, for spans of SDKs that
 * do not say).
 */
export function callRoleOf(name: string, attrs: Attrs, errorStatus: boolean): string {
  const role = storedText(attrs[ATTR_CALL_ROLE]);
  if (role !== '') return role;
  // The name first: it rules out almost every span for the price of one Set lookup.
  if (
    CONNECT_NAMES.has(name) &&
    storedText(attrs[ATTR_CLASS]) === '' &&
    !errorStatus &&
    (attrs['db.system'] !== undefined || attrs['db.system.name'] !== undefined)
  ) {
    return 'checkout';
  }
  return '';
}

const CALL_KINDS = new Set(['Client', 'Server', 'SPAN_KIND_CLIENT', 'SPAN_KIND_SERVER']);

/**
 * faultline_counted_call: a CLIENT or SERVER span, or any span tagged with a source, unless it is
 * part of another call (a transport request, a successful checkout). `kind` in either spelling.
 */
export function isCountedCall(name: string, kind: string, attrs: Attrs, errorStatus: boolean): boolean {
  return (
    (storedText(attrs[ATTR_SOURCE]) !== '' || CALL_KINDS.has(kind)) &&
    callRoleOf(name, attrs, errorStatus) === ''
  );
}

/**
 * faultline_sdk_attempts: the attempts a library made inside one operation (faultline.attempts),
 * capped at 100; 0 when it says nothing. toUInt16OrZero reads decimal digits (a leading '+' and
 * zeros allowed) up to 65535, and anything else (a sign, a fraction, spaces, an overflow) as 0.
 */
export function sdkAttemptsOf(attrs: Attrs): number {
  const raw = attrs[ATTR_ATTEMPTS];
  if (typeof raw === 'number')
    return Number.isInteger(raw) && raw >= 0 && raw <= 65535 ? Math.min(raw, 100) : 0;
  const text = storedText(raw);
  if (!/^\+?[0-9]+$/.test(text)) return 0;
  const n = Number(text);
  return n <= 65535 ? Math.min(n, 100) : 0;
}

/** faultline_propagated: a failure that echoes one below it in the same process. */
export function isPropagated(attrs: Attrs): boolean {
  return storedText(attrs[ATTR_PROPAGATED]) === 'true';
}

import type { ClassifyContext, ErrorClass } from '../types.js';
import { readCode, readString } from './safe-read.js';
import { pick, type Verdict } from './verdict.js';

/**
 * PostgreSQL errors (pg's DatabaseError, postgres.js PostgresError, Neon's NeonDbError…): the
 * SQLSTATE is in `code`. Code rule: the five-character SQLSTATE ("40001").
 * Classes follow Appendix A of the PostgreSQL manual; exact codes override their class.
 */

// Classes start with a digit or are one of F0, HV, P0, XX; that keeps EPIPE and EPERM out.
const SQLSTATE = /^(?:[0-9][0-9A-Z]|F0|HV|P0|XX)[0-9A-Z]{3}$/;

/** Exact SQLSTATEs whose meaning differs from the rest of their class. */
const EXACT: Record<string, ErrorClass> = {
  '08P01': 'permanent', // protocol_violation: a client bug, not a network blip
  '25006': 'transient', // read_only_sql_transaction: writing to a standby, usually right after a failover
  '25P03': 'transient', // idle_in_transaction_session_timeout
  '25P04': 'transient', // transaction_timeout (PostgreSQL 17)
  '40002': 'validation', // transaction_integrity_constraint_violation: a deferred constraint failed
  '42501': 'authentication', // insufficient_privilege
  // Undefined objects: the schema is not what the statement assumes; like a 404, replan.
  '42P01': 'permanent', // undefined_table
  '42703': 'permanent', // undefined_column
  '42704': 'permanent', // undefined_object
  '42883': 'permanent', // undefined_function
  '55006': 'transient', // object_in_use
  '55P03': 'transient', // lock_not_available (NOWAIT / lock_timeout)
  '57P04': 'permanent', // database_dropped
  '58030': 'transient', // io_error
  '58P01': 'permanent', // undefined_file
  '58P02': 'permanent', // duplicate_file
  HV00N: 'transient', // fdw_unable_to_establish_connection
};

/** First two characters: the SQLSTATE class. Classes not listed are permanent. */
const BY_CLASS: Record<string, ErrorClass> = {
  '08': 'transient', // connection_exception
  '0L': 'validation', // invalid_grantor
  '0P': 'validation', // invalid_role_specification
  '21': 'validation', // cardinality_violation
  '22': 'validation', // data_exception
  '23': 'validation', // integrity_constraint_violation
  '28': 'authentication', // invalid_authorization_specification
  '40': 'transient', // transaction_rollback: serialization_failure, deadlock_detected…
  '42': 'validation', // syntax_error_or_access_rule_violation
  '44': 'validation', // with_check_option_violation
  '53': 'transient', // insufficient_resources: disk, memory, too_many_connections
  '54': 'validation', // program_limit_exceeded: the statement must change
  '57': 'transient', // operator_intervention: query_canceled, admin/crash shutdown, cannot_connect_now
  '58': 'transient', // system_error (external to PostgreSQL)
  '72': 'transient', // snapshot_too_old
};

/** Rolled back cleanly by the server: replaying at once is safe and is the documented remedy. */
const REPLAY_NOW = new Set(['40001', '40P01']);

const RAW_KEYS = [
  'name',
  'code',
  'severity',
  'detail',
  'hint',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
  'routine',
  'position',
];

/**
 * pg and pg-pool reject with plain Errors (no code) when the connection, not the statement,
 * failed; the texts are theirs (pg lib/client.js, pg-pool index.js), so each gets a stable code.
 */
const BY_MESSAGE: Record<string, [ErrorClass, string]> = {
  'Connection terminated unexpectedly': ['transient', 'CONNECTION_TERMINATED'],
  'Connection terminated': ['transient', 'CONNECTION_TERMINATED'],
  'Connection terminated due to connection timeout': ['transient', 'CONNECTION_TIMEOUT'],
  'timeout exceeded when trying to connect': ['transient', 'POOL_CONNECT_TIMEOUT'],
  'Query read timeout': ['transient', 'QUERY_READ_TIMEOUT'],
  'timeout expired': ['transient', 'CONNECT_TIMEOUT'],
  'Client has encountered a connection error and is not queryable': ['transient', 'CONNECTION_ERROR'],
  'Client was closed and is not queryable': ['permanent', 'CLIENT_CLOSED'],
  'Cannot use a pool after calling end on the pool': ['permanent', 'POOL_ENDED'],
};

/**
 * PostgREST's own codes (supabase-js PostgrestError), https://docs.postgrest.org/en/stable/references/errors.html:
 * PGRST0xx connection, PGRST1xx request, PGRST2xx schema cache, PGRST3xx JWT.
 */
function postgrestClass(code: string): ErrorClass {
  if (code === 'PGRST116') return 'permanent'; // .single() found no row (or several)
  if (code.startsWith('PGRST0') || code === 'PGRSTX00') return 'transient';
  if (code.startsWith('PGRST1')) return 'validation';
  if (code.startsWith('PGRST30') && code !== 'PGRST300') return 'authentication';
  return 'permanent';
}

export function classifyPostgrestError(err: unknown): Verdict | null {
  const code = readCode(err);
  if (code === undefined || !code.startsWith('PGRST')) return null;
  return {
    class: postgrestClass(code),
    code,
    source: 'db',
    raw: pick(err, ['name', 'code', 'details', 'hint']),
  };
}

/** pg's connection-level failures, recognised by their exact text. */
export function classifyPgClientMessage(err: unknown): Verdict | null {
  const message = readString(err, 'message');
  const known = message === undefined ? undefined : BY_MESSAGE[message];
  if (known === undefined) return null;
  return { class: known[0], code: known[1], source: 'db', raw: { name: readString(err, 'name') ?? 'Error' } };
}

export function classifyPostgresCode(sqlstate: string): ErrorClass {
  return EXACT[sqlstate] ?? BY_CLASS[sqlstate.slice(0, 2)] ?? 'permanent';
}

/** Looks like a PostgreSQL server error: a SQLSTATE plus a field only the server's ErrorResponse has. */
export function isPostgresError(err: unknown, ctx: ClassifyContext | undefined): boolean {
  const code = readCode(err);
  if (code === undefined || !SQLSTATE.test(code)) return false;
  if (ctx?.system === 'postgresql') return true;
  if (readString(err, 'severity') !== undefined || readString(err, 'routine') !== undefined) return true;
  // PostgREST / supabase-js PostgrestError: { code, details, hint, message }, a plain object.
  return 'hint' in (err as object) && 'details' in (err as object);
}

/**
 * PostgreSQL's DETAIL quotes the row's own values ("Key (email)=(ana@example.com) already exists.",
 * "Failing row contains (7, null)."): user data, which a stored envelope must not carry. The
 * columns and the sentence stay, the values go.
 */
function withoutRowValues(raw: Record<string, unknown>): Record<string, unknown> {
  const detail = raw.detail;
  if (typeof detail !== 'string') return raw;
  raw.detail = detail
    .replace(/^(Key \([^)]*\))=\(.*\)( [^()]*)$/s, '$1=(…)$2')
    .replace(/^(Failing row contains )\(.*\)(\.?)$/s, '$1(…)$2');
  return raw;
}

export function classifyPostgresError(err: unknown, ctx: ClassifyContext | undefined): Verdict | null {
  if (!isPostgresError(err, ctx)) return null;
  const code = readCode(err) as string;
  const verdict: Verdict = {
    class: classifyPostgresCode(code),
    code,
    source: 'db',
    raw: withoutRowValues(pick(err, RAW_KEYS)),
  };
  if (REPLAY_NOW.has(code)) verdict.retryAfter = 0;
  return verdict;
}

import type { ClassifyContext, ErrorClass } from '../types.js';
import { readString } from './safe-read.js';
import type { Verdict } from './verdict.js';

/**
 * ClickHouse through @clickhouse/client: parseError() turns the server's "Code: 60. DB::Exception:
 * … (UNKNOWN_TABLE)" into a ClickHouseError with `code` (the number, as a string) and `type`.
 * Code rule: the error number as a string ("60"); the type name stays in raw.
 */

const BY_TYPE: Record<string, ErrorClass> = {
  SYNTAX_ERROR: 'validation',
  TYPE_MISMATCH: 'validation',
  ILLEGAL_TYPE_OF_ARGUMENT: 'validation',
  NUMBER_OF_ARGUMENTS_DOESNT_MATCH: 'validation',
  BAD_ARGUMENTS: 'validation',
  ARGUMENT_OUT_OF_BOUND: 'validation',
  CANNOT_CONVERT_TYPE: 'validation',
  INCORRECT_DATA: 'validation',
  CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN: 'validation',
  AMBIGUOUS_COLUMN_NAME: 'validation',
  NOT_AN_AGGREGATE: 'validation',
  ILLEGAL_AGGREGATION: 'validation',
  ILLEGAL_COLUMN: 'validation',
  TOO_LARGE_STRING_SIZE: 'validation',
  UNKNOWN_TABLE: 'permanent',
  UNKNOWN_DATABASE: 'permanent',
  UNKNOWN_IDENTIFIER: 'permanent',
  UNKNOWN_FUNCTION: 'permanent',
  NO_SUCH_COLUMN_IN_TABLE: 'permanent',
  TABLE_ALREADY_EXISTS: 'permanent',
  DATABASE_ALREADY_EXISTS: 'permanent',
  NOT_IMPLEMENTED: 'permanent',
  READONLY: 'permanent', // the user's profile forbids writes
  TOO_MANY_ROWS_OR_BYTES: 'permanent',
  AUTHENTICATION_FAILED: 'authentication',
  ACCESS_DENIED: 'authentication',
  UNKNOWN_USER: 'authentication',
  WRONG_PASSWORD: 'authentication',
  REQUIRED_PASSWORD: 'authentication',
  IP_ADDRESS_NOT_ALLOWED: 'authentication',
  DATABASE_ACCESS_DENIED: 'authentication',
  QUOTA_EXCEEDED: 'rate_limit', // ClickHouse quotas are per interval: the next interval resets them
  TIMEOUT_EXCEEDED: 'transient',
  TOO_SLOW: 'transient',
  TOO_MANY_SIMULTANEOUS_QUERIES: 'transient',
  NO_FREE_CONNECTION: 'transient',
  SOCKET_TIMEOUT: 'transient',
  NETWORK_ERROR: 'transient',
  MEMORY_LIMIT_EXCEEDED: 'transient', // server-wide pressure clears as other queries finish
  CANNOT_ALLOCATE_MEMORY: 'transient',
  TOO_MANY_PARTS: 'transient', // insert backpressure: slow down and retry
  TABLE_IS_READ_ONLY: 'transient', // replica lost its Keeper session
  UNKNOWN_STATUS_OF_INSERT: 'transient',
  QUERY_WAS_CANCELLED: 'transient',
  KEEPER_EXCEPTION: 'transient',
  NO_ZOOKEEPER: 'transient',
  ABORTED: 'transient',
  ALL_CONNECTION_TRIES_FAILED: 'transient',
  TOO_FEW_LIVE_REPLICAS: 'transient',
  UNSATISFIED_QUORUM_FOR_PREVIOUS_WRITE: 'transient',
  UNEXPECTED_END_OF_FILE: 'transient',
  ATTEMPT_TO_READ_AFTER_EOF: 'transient',
  DNS_ERROR: 'transient',
};

/**
 * The number names the error reliably; the client's `type` is parsed from the last parenthesis
 * of the text and can be a fragment of the message ("Syntax error … (FORM)"), so numbers win.
 */
const TYPE_BY_NUMBER: Record<string, string> = {
  '3': 'UNEXPECTED_END_OF_FILE',
  '6': 'CANNOT_PARSE_TEXT',
  '16': 'NO_SUCH_COLUMN_IN_TABLE',
  '27': 'CANNOT_PARSE_INPUT_ASSERTION_FAILED',
  '32': 'ATTEMPT_TO_READ_AFTER_EOF',
  '36': 'BAD_ARGUMENTS',
  '42': 'NUMBER_OF_ARGUMENTS_DOESNT_MATCH',
  '43': 'ILLEGAL_TYPE_OF_ARGUMENT',
  '46': 'UNKNOWN_FUNCTION',
  '47': 'UNKNOWN_IDENTIFIER',
  '48': 'NOT_IMPLEMENTED',
  '53': 'TYPE_MISMATCH',
  '57': 'TABLE_ALREADY_EXISTS',
  '60': 'UNKNOWN_TABLE',
  '62': 'SYNTAX_ERROR',
  '81': 'UNKNOWN_DATABASE',
  '82': 'DATABASE_ALREADY_EXISTS',
  '159': 'TIMEOUT_EXCEEDED',
  '160': 'TOO_SLOW',
  '164': 'READONLY',
  '173': 'CANNOT_ALLOCATE_MEMORY',
  '192': 'UNKNOWN_USER',
  '193': 'WRONG_PASSWORD',
  '194': 'REQUIRED_PASSWORD',
  '195': 'IP_ADDRESS_NOT_ALLOWED',
  '198': 'DNS_ERROR',
  '201': 'QUOTA_EXCEEDED',
  '202': 'TOO_MANY_SIMULTANEOUS_QUERIES',
  '203': 'NO_FREE_CONNECTION',
  '209': 'SOCKET_TIMEOUT',
  '210': 'NETWORK_ERROR',
  '225': 'NO_ZOOKEEPER',
  '236': 'ABORTED',
  '241': 'MEMORY_LIMIT_EXCEEDED',
  '242': 'TABLE_IS_READ_ONLY',
  '252': 'TOO_MANY_PARTS',
  '279': 'ALL_CONNECTION_TRIES_FAILED',
  '285': 'TOO_FEW_LIVE_REPLICAS',
  '286': 'UNSATISFIED_QUORUM_FOR_PREVIOUS_WRITE',
  '291': 'DATABASE_ACCESS_DENIED',
  '319': 'UNKNOWN_STATUS_OF_INSERT',
  '349': 'CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN',
  '352': 'AMBIGUOUS_COLUMN_NAME',
  '394': 'QUERY_WAS_CANCELLED',
  '497': 'ACCESS_DENIED',
  '516': 'AUTHENTICATION_FAILED',
  '999': 'KEEPER_EXCEPTION',
};

function classForType(type: string): ErrorClass {
  const exact = BY_TYPE[type];
  if (exact !== undefined) return exact;
  if (type.startsWith('CANNOT_PARSE_') || type.startsWith('ILLEGAL_')) return 'validation';
  if (type.startsWith('UNKNOWN_')) return 'permanent';
  return 'permanent';
}

export function classifyClickhouseError(
  err: unknown,
  ctx: ClassifyContext | undefined,
  name: string,
): Verdict | null {
  if (name !== 'ClickHouseError' && ctx?.system !== 'clickhouse') return null;
  const code = readString(err, 'code');
  if (code === undefined) return null;
  const type = TYPE_BY_NUMBER[code] ?? readString(err, 'type');
  if (type === undefined) return null;
  return { class: classForType(type), code, source: 'db', raw: { name, code, type } };
}

import type { ClassifyContext, ErrorClass } from '../types.js';
import { readNumber, readString } from './safe-read.js';
import type { Verdict } from './verdict.js';

/**
 * ClickHouse through @clickhouse/client: parseError() turns the server's "Code: 60. DB::Exception:
 * … (UNKNOWN_TABLE)" into a ClickHouseError with `code` (the number, as a string) and `type`.
 * Embedded ClickHouse (chdb's ChdbError family) keeps the number in `clickhouseCode` and the
 * type only in the text's last parenthesis; its `code` is chdb's own ("CHDB_INSERT").
 * Code rule: the error number as a string ("60"); the type name stays in raw.
 *
 * `validation` means the statement or its data was refused as such: sending the same again fails
 * the same way, so a writer splits the batch rather than waiting (the rows are the problem).
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
  TOO_LARGE_ARRAY_SIZE: 'validation',
  CANNOT_READ_ARRAY_FROM_TEXT: 'validation',
  SIZES_OF_ARRAYS_DONT_MATCH: 'validation',
  VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE: 'validation',
  FUNCTION_THROW_IF_VALUE_IS_NON_ZERO: 'validation',
  DECIMAL_OVERFLOW: 'validation',
  UNKNOWN_ELEMENT_IN_ENUM: 'validation',
  VIOLATED_CONSTRAINT: 'validation', // a row broke a table's CHECK constraint
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
  TOO_MANY_PARTS: 'transient', // insert backpressure: slow down and retry (see PARTITION_SPREAD)
  // Storage faults (a full, failing or read-only disk): they clear when the disk does.
  NOT_ENOUGH_SPACE: 'transient',
  CANNOT_WRITE_TO_FILE_DESCRIPTOR: 'transient',
  CANNOT_READ_FROM_FILE_DESCRIPTOR: 'transient',
  CANNOT_OPEN_FILE: 'transient',
  CANNOT_FSYNC: 'transient',
  CANNOT_WRITE_TO_OSTREAM: 'transient',
  SYSTEM_ERROR: 'transient',
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
  '24': 'CANNOT_WRITE_TO_OSTREAM',
  '25': 'CANNOT_PARSE_ESCAPE_SEQUENCE',
  '26': 'CANNOT_PARSE_QUOTED_STRING',
  '16': 'NO_SUCH_COLUMN_IN_TABLE',
  '27': 'CANNOT_PARSE_INPUT_ASSERTION_FAILED',
  '32': 'ATTEMPT_TO_READ_AFTER_EOF',
  '36': 'BAD_ARGUMENTS',
  '38': 'CANNOT_PARSE_DATE',
  '41': 'CANNOT_PARSE_DATETIME',
  '42': 'NUMBER_OF_ARGUMENTS_DOESNT_MATCH',
  '43': 'ILLEGAL_TYPE_OF_ARGUMENT',
  '46': 'UNKNOWN_FUNCTION',
  '47': 'UNKNOWN_IDENTIFIER',
  '48': 'NOT_IMPLEMENTED',
  '53': 'TYPE_MISMATCH',
  '69': 'ARGUMENT_OUT_OF_BOUND',
  '70': 'CANNOT_CONVERT_TYPE',
  '72': 'CANNOT_PARSE_NUMBER',
  '74': 'CANNOT_READ_FROM_FILE_DESCRIPTOR',
  '75': 'CANNOT_WRITE_TO_FILE_DESCRIPTOR',
  '76': 'CANNOT_OPEN_FILE',
  '57': 'TABLE_ALREADY_EXISTS',
  '60': 'UNKNOWN_TABLE',
  '62': 'SYNTAX_ERROR',
  '81': 'UNKNOWN_DATABASE',
  '82': 'DATABASE_ALREADY_EXISTS',
  '117': 'INCORRECT_DATA',
  '128': 'TOO_LARGE_ARRAY_SIZE',
  '130': 'CANNOT_READ_ARRAY_FROM_TEXT',
  '131': 'TOO_LARGE_STRING_SIZE',
  '159': 'TIMEOUT_EXCEEDED',
  '160': 'TOO_SLOW',
  '164': 'READONLY',
  '173': 'CANNOT_ALLOCATE_MEMORY',
  '190': 'SIZES_OF_ARRAYS_DONT_MATCH',
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
  '243': 'NOT_ENOUGH_SPACE',
  '242': 'TABLE_IS_READ_ONLY',
  '252': 'TOO_MANY_PARTS',
  '279': 'ALL_CONNECTION_TRIES_FAILED',
  '285': 'TOO_FEW_LIVE_REPLICAS',
  '286': 'UNSATISFIED_QUORUM_FOR_PREVIOUS_WRITE',
  '291': 'DATABASE_ACCESS_DENIED',
  '319': 'UNKNOWN_STATUS_OF_INSERT',
  '321': 'VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE',
  '349': 'CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN',
  '352': 'AMBIGUOUS_COLUMN_NAME',
  '394': 'QUERY_WAS_CANCELLED',
  '395': 'FUNCTION_THROW_IF_VALUE_IS_NON_ZERO',
  '407': 'DECIMAL_OVERFLOW',
  '425': 'SYSTEM_ERROR',
  '469': 'VIOLATED_CONSTRAINT',
  '497': 'ACCESS_DENIED',
  '516': 'AUTHENTICATION_FAILED',
  '999': 'KEEPER_EXCEPTION',
  '1001': 'STD_EXCEPTION',
};

/**
 * TOO_MANY_PARTS also names one INSERT block spanning more partitions than
 * max_partitions_per_insert_block: not back-pressure but the block's own shape, so the same block
 * always fails again; smaller blocks pass.
 */
const PARTITION_SPREAD = /partitions for (a )?single INSERT block/i;
/** A C++ std::exception from the storage layer (filesystem_error: a read-only or full disk). */
const STORAGE_FAULT =
  /filesystem error|Read-only file system|No space left|Input\/output error|Permission denied/i;
const TYPE_IN_TEXT = /\(([A-Z][A-Z0-9_]{2,})\)/g;

/** The type name ClickHouse puts in the text's last upper-case parenthesis: "… (TOO_MANY_PARTS)". */
function typeInText(message: string): string | undefined {
  let type: string | undefined;
  // The name sits at the end, before an optional "(version …)": the tail is enough to scan.
  for (const m of message.slice(-4096).matchAll(TYPE_IN_TEXT)) type = m[1];
  return type;
}

function classForType(type: string, message: string): ErrorClass {
  if (type === 'TOO_MANY_PARTS' && PARTITION_SPREAD.test(message)) return 'validation';
  if (type === 'STD_EXCEPTION') return STORAGE_FAULT.test(message) ? 'transient' : 'permanent';
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
  const embedded = readNumber(err, 'clickhouseCode');
  if (name !== 'ClickHouseError' && ctx?.system !== 'clickhouse' && embedded === undefined) return null;
  const code = embedded !== undefined ? String(embedded) : readString(err, 'code');
  if (code === undefined || !/^\d+$/.test(code)) return null;
  const message = readString(err, 'message') ?? '';
  const type = TYPE_BY_NUMBER[code] ?? readString(err, 'type') ?? typeInText(message);
  if (type === undefined) return null;
  return { class: classForType(type, message), code, source: 'db', raw: { name, code, type } };
}

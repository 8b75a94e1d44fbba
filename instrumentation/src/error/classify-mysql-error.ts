import type { ClassifyContext, ErrorClass } from '../types.js';
import { read, readNumber, readString } from './safe-read.js';
import { pick, type Verdict } from './verdict.js';

/**
 * MySQL and MariaDB through mysql2 (or mysql, mariadb): a server error carries `errno` (number),
 * a symbolic `code` (ER_DUP_ENTRY), `sqlState` and `sqlMessage`; client-side failures carry only a
 * symbolic code (PROTOCOL_CONNECTION_LOST) and `fatal`.
 * Code rule: the server error number as a string ("1213"); the symbolic code when there is no
 * server number. The symbolic name stays in `raw.code`.
 */

const BY_ERRNO: Record<number, ErrorClass> = {
  // Concurrency: the statement (1205) or the whole transaction (1213) was rolled back.
  1205: 'transient', // ER_LOCK_WAIT_TIMEOUT
  1213: 'transient', // ER_LOCK_DEADLOCK
  1020: 'transient', // ER_CHECKREAD: record changed since last read
  1412: 'transient', // ER_TABLE_DEF_CHANGED
  1615: 'transient', // ER_NEED_REPREPARE
  1637: 'transient', // ER_TOO_MANY_CONCURRENT_TRXS
  3100: 'transient', // ER_TRANSACTION_ROLLBACK_DURING_COMMIT
  3572: 'transient', // ER_LOCK_NOWAIT
  // Server going away, overloaded, interrupted or read-only after a failover.
  1040: 'transient', // ER_CON_COUNT_ERROR: too many connections
  1041: 'transient', // ER_OUT_OF_RESOURCES
  1037: 'transient', // ER_OUTOFMEMORY
  1038: 'transient', // ER_OUT_OF_SORTMEMORY
  1021: 'transient', // ER_DISK_FULL
  1114: 'transient', // ER_RECORD_FILE_FULL
  1135: 'transient', // ER_CANT_CREATE_THREAD
  1053: 'transient', // ER_SERVER_SHUTDOWN
  1077: 'transient', // ER_NORMAL_SHUTDOWN
  1079: 'transient', // ER_SHUTDOWN_COMPLETE
  1080: 'transient', // ER_FORCING_CLOSE
  1152: 'transient', // ER_ABORTING_CONNECTION
  1154: 'transient', // ER_NET_READ_ERROR_FROM_PIPE
  1156: 'transient', // ER_NET_PACKETS_OUT_OF_ORDER
  1157: 'transient', // ER_NET_UNCOMPRESS_ERROR
  1158: 'transient', // ER_NET_READ_ERROR
  1159: 'transient', // ER_NET_READ_INTERRUPTED
  1160: 'transient', // ER_NET_ERROR_ON_WRITE
  1161: 'transient', // ER_NET_WRITE_INTERRUPTED
  1180: 'transient', // ER_ERROR_DURING_COMMIT
  1290: 'transient', // ER_OPTION_PREVENTS_STATEMENT (--read-only, typical right after failover)
  1836: 'transient', // ER_READ_ONLY_MODE
  1317: 'transient', // ER_QUERY_INTERRUPTED
  1927: 'transient', // ER_CONNECTION_KILLED (MariaDB)
  1969: 'transient', // ER_STATEMENT_TIMEOUT (MariaDB max_statement_time)
  3024: 'transient', // ER_QUERY_TIMEOUT (MySQL max_execution_time)
  4031: 'transient', // ER_CLIENT_INTERACTION_TIMEOUT
  1203: 'rate_limit', // ER_TOO_MANY_USER_CONNECTIONS: max_user_connections
  1226: 'rate_limit', // ER_USER_LIMIT_REACHED: max_questions / max_updates per hour
  // Client library errors (CR_*), reported by the C connector family and by some proxies.
  2002: 'transient', // CR_CONNECTION_ERROR
  2003: 'transient', // CR_CONN_HOST_ERROR
  2005: 'transient', // CR_UNKNOWN_HOST
  2006: 'transient', // CR_SERVER_GONE_ERROR
  2013: 'transient', // CR_SERVER_LOST
  2055: 'transient', // CR_SERVER_LOST_EXTENDED
  // Credentials and privileges.
  1044: 'authentication', // ER_DBACCESS_DENIED_ERROR
  1045: 'authentication', // ER_ACCESS_DENIED_ERROR
  1130: 'authentication', // ER_HOST_NOT_PRIVILEGED
  1142: 'authentication', // ER_TABLEACCESS_DENIED_ERROR
  1143: 'authentication', // ER_COLUMNACCESS_DENIED_ERROR
  1227: 'authentication', // ER_SPECIFIC_ACCESS_DENIED_ERROR
  1251: 'authentication', // ER_NOT_SUPPORTED_AUTH_MODE
  1370: 'authentication', // ER_PROCACCESS_DENIED_ERROR
  1698: 'authentication', // ER_ACCESS_DENIED_NO_PASSWORD_ERROR
  1820: 'authentication', // ER_MUST_CHANGE_PASSWORD
  1862: 'authentication', // ER_MUST_CHANGE_PASSWORD_LOGIN
  3118: 'authentication', // ER_ACCOUNT_HAS_BEEN_LOCKED
  3955: 'authentication', // ER_USER_ACCESS_DENIED_FOR_USER_ACCOUNT_BLOCKED_BY_PASSWORD_LOCK
  // Integrity and data: the request must change.
  1022: 'validation', // ER_DUP_KEY
  1062: 'validation', // ER_DUP_ENTRY
  1586: 'validation', // ER_DUP_ENTRY_WITH_KEY_NAME
  1169: 'validation', // ER_DUP_UNIQUE
  1216: 'validation', // ER_NO_REFERENCED_ROW
  1217: 'validation', // ER_ROW_IS_REFERENCED
  1451: 'validation', // ER_ROW_IS_REFERENCED_2
  1452: 'validation', // ER_NO_REFERENCED_ROW_2
  1048: 'validation', // ER_BAD_NULL_ERROR
  1364: 'validation', // ER_NO_DEFAULT_FOR_FIELD
  1406: 'validation', // ER_DATA_TOO_LONG
  1264: 'validation', // ER_WARN_DATA_OUT_OF_RANGE
  1265: 'validation', // WARN_DATA_TRUNCATED
  1292: 'validation', // ER_TRUNCATED_WRONG_VALUE
  1366: 'validation', // ER_TRUNCATED_WRONG_VALUE_FOR_FIELD
  1367: 'validation', // ER_ILLEGAL_VALUE_FOR_TYPE
  1411: 'validation', // ER_WRONG_VALUE_FOR_TYPE
  1690: 'validation', // ER_DATA_OUT_OF_RANGE
  3819: 'validation', // ER_CHECK_CONSTRAINT_VIOLATED
  4025: 'validation', // ER_CONSTRAINT_FAILED (MariaDB)
  1136: 'validation', // ER_WRONG_VALUE_COUNT_ON_ROW
  1242: 'validation', // ER_SUBQUERY_NO_1_ROW
  // Statement errors: syntax, unknown objects, wrong arguments.
  1054: 'permanent', // ER_BAD_FIELD_ERROR: unknown column, same as an unknown table
  1052: 'validation', // ER_NON_UNIQ_ERROR
  1064: 'validation', // ER_PARSE_ERROR
  1149: 'validation', // ER_SYNTAX_ERROR
  1146: 'permanent', // ER_NO_SUCH_TABLE: the schema is not what the statement assumes
  1210: 'validation', // ER_WRONG_ARGUMENTS
  1241: 'validation', // ER_OPERAND_COLUMNS
  1055: 'validation', // ER_WRONG_FIELD_WITH_GROUP
  1111: 'validation', // ER_INVALID_GROUP_FUNC_USE
  1093: 'validation', // ER_UPDATE_TABLE_USED
  1153: 'validation', // ER_NET_PACKET_TOO_LARGE: the statement exceeds max_allowed_packet
  1305: 'permanent', // ER_SP_DOES_NOT_EXIST
  1318: 'validation', // ER_SP_WRONG_NO_OF_ARGS
  1582: 'validation', // ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT
  1584: 'validation', // ER_WRONG_PARAMETERS_TO_STORED_FCT
  1049: 'permanent', // ER_BAD_DB_ERROR: unknown database, a configuration fault
};

/** Client-side codes from mysql2 and mysql: no server number, only the symbolic code. */
const BY_CLIENT_CODE: Record<string, ErrorClass> = {
  PROTOCOL_CONNECTION_LOST: 'transient',
  PROTOCOL_SEQUENCE_TIMEOUT: 'transient',
  PROTOCOL_PACKETS_OUT_OF_ORDER: 'transient',
  PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR: 'transient',
  PROTOCOL_ERROR: 'transient',
  PROTOCOL_ENQUEUE_AFTER_QUIT: 'permanent',
  PROTOCOL_ENQUEUE_AFTER_DESTROY: 'permanent',
  PROTOCOL_ENQUEUE_HANDSHAKE_TWICE: 'permanent',
  HANDSHAKE_NO_SSL_SUPPORT: 'permanent',
  HANDSHAKE_SSL_ERROR: 'permanent',
  ER_GET_CONNECTION_TIMEOUT: 'transient', // mariadb connector: pool acquire timeout
  ER_CONNECTION_TIMEOUT: 'transient',
  ER_SOCKET_UNEXPECTED_CLOSE: 'transient',
  ER_CONNECTION_ALREADY_CLOSED: 'transient',
  ER_POOL_ALREADY_CLOSED: 'permanent',
  // mysql (v1) lib/Pool.js: the wait queue is full (connections come back), or the pool is gone.
  POOL_ENQUEUELIMIT: 'transient',
  POOL_CLOSED: 'permanent',
  POOL_NOEXIST: 'permanent',
};

/** SQLSTATE fallback for server numbers not in the table (MySQL and MariaDB share SQL-92 classes). */
function classFromSqlState(sqlState: string | undefined): ErrorClass | undefined {
  if (!sqlState) return undefined;
  if (sqlState === '40001' || sqlState.startsWith('08')) return 'transient';
  if (sqlState.startsWith('28')) return 'authentication';
  if (sqlState.startsWith('23') || sqlState.startsWith('22') || sqlState.startsWith('42'))
    return 'validation';
  return undefined;
}

const RAW_KEYS = ['name', 'code', 'errno', 'sqlState', 'fatal'];

const SYSTEMS = new Set(['mysql', 'mariadb']);

export function isMysqlError(err: unknown, ctx: ClassifyContext | undefined): boolean {
  if (readString(err, 'sqlState') !== undefined || readString(err, 'sqlMessage') !== undefined) return true;
  const code = read(err, 'code');
  // mysql2's and mysql's PROTOCOL_* codes are theirs alone.
  if (typeof code === 'string' && code.startsWith('PROTOCOL_') && code in BY_CLIENT_CODE) return true;
  if (!SYSTEMS.has(ctx?.system ?? '')) return false;
  const errno = readNumber(err, 'errno');
  if (errno !== undefined && errno > 0) return true;
  if (typeof code === 'string') return code in BY_CLIENT_CODE;
  // mysql2 marks connection-ending errors `fatal` even when they carry no code at all.
  return read(err, 'fatal') === true;
}

export function classifyMysqlError(err: unknown, ctx: ClassifyContext | undefined): Verdict | null {
  if (!isMysqlError(err, ctx)) return null;
  const errno = readNumber(err, 'errno');
  const symbolic = readString(err, 'code');
  const raw = pick(err, RAW_KEYS);
  if (errno !== undefined && errno > 0) {
    const cls = BY_ERRNO[errno] ?? classFromSqlState(readString(err, 'sqlState'));
    const fatal = read(err, 'fatal') === true;
    const verdict: Verdict = {
      // A fatal error we do not know closed the connection: a new one may well succeed.
      class: cls ?? (fatal ? 'transient' : 'permanent'),
      code: String(errno),
      source: 'db',
      raw,
    };
    if (errno === 1213) verdict.retryAfter = 0;
    return verdict;
  }
  if (symbolic !== undefined && symbolic in BY_CLIENT_CODE) {
    return { class: BY_CLIENT_CODE[symbolic] as ErrorClass, code: symbolic, source: 'db', raw };
  }
  // "Can't add new command when connection is in closed state": the connection is gone, a new one may work.
  if (symbolic === undefined && read(err, 'fatal') === true) {
    return { class: 'transient', code: 'FATAL_CONNECTION_ERROR', source: 'db', raw };
  }
  return null;
}

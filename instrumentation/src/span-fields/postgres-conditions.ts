/**
 * SQLSTATE behind PostgreSQL error texts and condition names, for spans that carry only a message
 * or an exception type. Codes from the PostgreSQL manual, Appendix A "PostgreSQL Error Codes";
 * the condition names are psycopg's exception classes (psycopg2.errors / psycopg.errors name each
 * class after the condition: UniqueViolation = unique_violation = 23505), and the texts are the
 * server's own (src/backend, e.g. "deadlock detected" from deadlock.c).
 */
export const SQLSTATE_BY_CONDITION: Record<string, string> = {
  UniqueViolation: '23505',
  ForeignKeyViolation: '23503',
  NotNullViolation: '23502',
  CheckViolation: '23514',
  ExclusionViolation: '23P01',
  DeadlockDetected: '40P01',
  SerializationFailure: '40001',
  LockNotAvailable: '55P03',
  QueryCanceled: '57014',
  AdminShutdown: '57P01',
  CannotConnectNow: '57P03',
  TooManyConnections: '53300',
  InvalidPassword: '28P01',
  InvalidAuthorizationSpecification: '28000',
  UndefinedTable: '42P01',
  UndefinedColumn: '42703',
  UndefinedFunction: '42883',
  SyntaxError: '42601',
  InsufficientPrivilege: '42501',
  InvalidTextRepresentation: '22P02',
  NumericValueOutOfRange: '22003',
  StringDataRightTruncation: '22001',
  DivisionByZero: '22012',
  ReadOnlySqlTransaction: '25006',
  DiskFull: '53100',
  OutOfMemory: '53200',
};

/** Server message texts (first match wins; most specific first). */
export const SQLSTATE_BY_TEXT: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bdeadlock detected\b/i, '40P01'],
  [/could not serialize access/i, '40001'],
  [/duplicate key value violates unique constraint/i, '23505'],
  [/violates foreign key constraint/i, '23503'],
  [/violates not-null constraint/i, '23502'],
  [/violates check constraint/i, '23514'],
  [/canceling statement due to (statement|lock) timeout/i, '57014'],
  [/could not obtain lock on/i, '55P03'],
  [/password authentication failed/i, '28P01'],
  [/sorry, too many clients already|too many connections for role/i, '53300'],
  [/terminating connection due to administrator command/i, '57P01'],
  [/the database system is (starting up|shutting down)/i, '57P03'],
  [/relation "[^"]*" does not exist/i, '42P01'],
  [/column "[^"]*" (of relation "[^"]*" )?does not exist/i, '42703'],
  [/syntax error at or near/i, '42601'],
  [/permission denied for/i, '42501'],
  [/invalid input syntax for/i, '22P02'],
];

/** An explicit SQLSTATE in the text: pgx "(SQLSTATE 40P01)", JS pg's "(code: 40P01)", JDBC "SQLState: 40P01". */
export const SQLSTATE_IN_TEXT = /\((?:SQLSTATE|code:?) ([0-9A-Z]{5})\)|SQLState:? ([0-9A-Z]{5})\b/;

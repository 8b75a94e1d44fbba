/**
 * The database system a logged exception's class names, for a record whose attributes name none.
 * A span carries db.system; a log record of the same failure usually does not, only the driver's
 * exception class (the JDBC driver's PSQLException, psycopg's UniqueViolation, SqlClient's
 * SqlException), and the classifiers read SQLSTATEs and server numbers only for a known system.
 * Only classes that belong to one system's driver are listed: java.sql.SQLException, pyodbc or
 * SQLAlchemy's wrappers name none.
 */
const SYSTEM_BY_CLASS: readonly [RegExp, string][] = [
  [/^(org\.postgresql\.|psycopg2?\.|asyncpg\.|Npgsql\.)|(^|\*|\.)pgconn\.PgError$/, 'postgresql'],
  [/^(com\.mysql\.|pymysql\.|MySQLdb\.|mysql\.connector\.|MySqlConnector\.)/, 'mysql'],
  [/^(org\.mariadb\.jdbc\.)/, 'mariadb'],
  [
    /^((Microsoft|System)\.Data\.SqlClient\.SqlException$|com\.microsoft\.sqlserver\.|pymssql\.)/,
    'microsoft.sql_server',
  ],
];

export function systemOfExceptionType(type: string | undefined): string | undefined {
  if (type === undefined || type === '') return undefined;
  for (const [pattern, system] of SYSTEM_BY_CLASS) if (pattern.test(type)) return system;
  return undefined;
}

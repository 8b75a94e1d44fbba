/** Semconv `db.system` / `db.system.name` values (old and new names) → the classifier's `system`. */
const DB_SYSTEMS: Record<string, string> = {
  postgresql: 'postgresql',
  mysql: 'mysql',
  mariadb: 'mariadb',
  mssql: 'microsoft.sql_server',
  'microsoft.sql_server': 'microsoft.sql_server',
  redis: 'redis',
  mongodb: 'mongodb',
};

/**
 * The classifier's `system` for a span's database system attribute, read from either convention
 * (`db.system.name` first); a value not in the table passes as is. Shared by the preload and the
 * collector's ingest classification, whose span attributes differ in type only.
 */
export function dbSystemOf(attrs: Readonly<Record<string, unknown>>): string | undefined {
  // A broker client's messaging.system stands in: the classifier reads it the same way (a socket
  // error met by a broker client is the broker's failure).
  const raw = attrs['db.system.name'] ?? attrs['db.system'] ?? attrs['messaging.system'];
  return typeof raw === 'string' && raw !== '' ? (DB_SYSTEMS[raw] ?? raw) : undefined;
}

import type { Attributes } from '@opentelemetry/api';

/** Maps semconv `db.system` values (old and new names) to the classifier's `system` context. */
const DB_SYSTEMS: Record<string, string> = {
  postgresql: 'postgresql',
  mysql: 'mysql',
  mariadb: 'mariadb',
  mssql: 'microsoft.sql_server',
  'microsoft.sql_server': 'microsoft.sql_server',
  redis: 'redis',
  mongodb: 'mongodb',
};

export function dbSystemOf(attrs: Attributes): string | undefined {
  const raw = attrs['db.system.name'] ?? attrs['db.system'];
  return typeof raw === 'string' ? (DB_SYSTEMS[raw] ?? raw) : undefined;
}

/** The envelope `source` for a client span, known at start so successes count in denominators. */
export function sourceOf(attrs: Attributes): string | undefined {
  const rpc = attrs['rpc.system'];
  // Before the db check: DynamoDB spans carry db.system.name too, yet their failures are the
  // AWS SDK's ('sdk'), and successes must count under the same source as failures.
  if (rpc === 'aws-api') return 'sdk';
  if (attrs['db.system.name'] !== undefined || attrs['db.system'] !== undefined) return 'db';
  if (rpc !== undefined) return 'rpc';
  if (attrs['http.request.method'] !== undefined || attrs['http.method'] !== undefined) return 'http';
  return undefined;
}

export function httpStatusOf(attrs: Attributes): number | undefined {
  const raw = attrs['http.response.status_code'] ?? attrs['http.status_code'];
  const n = typeof raw === 'string' ? Number(raw) : raw;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

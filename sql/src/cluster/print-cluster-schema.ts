import { assertIdentifier } from '../ddl/identifier.js';
import { resolveSqlDir } from '../ddl/sql-dir.js';
import { parseTtlDays } from '../ddl/ttl-days.js';
import { CLUSTER_ENV, resolveClusterName } from './cluster-name.js';
import { clusterSchemaHeader } from './cluster-schema-header.js';
import { renderClusterTtl } from './cluster-ttl.js';
import { renderClusterSchema } from './render-cluster-schema.js';

/**
 * The full cluster DDL for `FAULTLINE_CLICKHOUSE_CLUSTER`, as text: a header comment, then each
 * statement ending in `;`, then the TTL of FAULTLINE_TTL_DAYS on the local tables (when not 0).
 * Every name is qualified with `FAULTLINE_CLICKHOUSE_DATABASE` (default `default`, as the store); the SQL
 * folder is the one the store uses (FAULTLINE_SQL_DIR or the repository's sql/). Connects nowhere.
 */
export function printClusterSchema(env: NodeJS.ProcessEnv = process.env, sqlDir = resolveSqlDir()): string {
  const cluster = resolveClusterName(env);
  if (!cluster) {
    throw new RangeError(
      `${CLUSTER_ENV} is not set: set it to the cluster's name (a <remote_servers> entry), e.g. ${CLUSTER_ENV}=faultline`,
    );
  }
  // Always a named database, as the store connects to one: ON CLUSTER DDL runs on each server in
  // that server's default database unless told otherwise, and currentDatabase() in the Distributed
  // engine's arguments evaluates there too (ClickHouse issues 6104, 8170), not in the caller's.
  const database = assertIdentifier(
    env.FAULTLINE_CLICKHOUSE_DATABASE?.trim() || 'default',
    'FAULTLINE_CLICKHOUSE_DATABASE',
  );
  const target = { cluster, database };
  const ttlDays = parseTtlDays(env.FAULTLINE_TTL_DAYS ?? 0, 'FAULTLINE_TTL_DAYS');
  const statements = [...renderClusterSchema(sqlDir, target), ...renderClusterTtl(ttlDays, target)];
  return `${clusterSchemaHeader(cluster, database)}\n\n${statements.map((s) => `${s};\n`).join('\n')}`;
}

import { assertIdentifier } from '../store/identifier.js';
import { resolveSqlDir } from '../store/sql-dir.js';
import { CLUSTER_ENV, resolveClusterName } from './cluster-name.js';
import { clusterSchemaHeader } from './cluster-schema-header.js';
import { renderClusterSchema } from './render-cluster-schema.js';

/**
 * The full cluster DDL for `FAULTLINE_CLICKHOUSE_CLUSTER`, as text: a header comment, then each
 * statement ending in `;`. `FAULTLINE_CLICKHOUSE_DATABASE`, when set, names the database; the SQL
 * folder is the one the store uses (FAULTLINE_SQL_DIR or the repository's sql/). Connects nowhere.
 */
export function printClusterSchema(env: NodeJS.ProcessEnv = process.env, sqlDir = resolveSqlDir()): string {
  const cluster = resolveClusterName(env);
  if (!cluster) {
    throw new RangeError(
      `${CLUSTER_ENV} is not set: set it to the cluster's name (a <remote_servers> entry), e.g. ${CLUSTER_ENV}=faultline`,
    );
  }
  const rawDatabase = env.FAULTLINE_CLICKHOUSE_DATABASE?.trim() || undefined;
  const database = rawDatabase && assertIdentifier(rawDatabase, 'FAULTLINE_CLICKHOUSE_DATABASE');
  const statements = renderClusterSchema(sqlDir, { cluster, ...(database ? { database } : {}) });
  return `${clusterSchemaHeader(cluster, database)}\n\n${statements.map((s) => `${s};\n`).join('\n')}`;
}

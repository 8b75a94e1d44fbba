import { resolve } from 'node:path';
import { resolveClusterName } from '../cluster/cluster-name.js';
import { assertIdentifier } from '../ddl/identifier.js';
import { parseTtlDays } from '../ddl/ttl-days.js';
import type { StoreOptions } from '../types.js';

/** StoreOptions with every environment fallback applied and validated. */
export interface ResolvedStoreOptions {
  mode: 'embedded' | 'server';
  dataDir: string;
  url?: string;
  username?: string;
  password?: string;
  database: string;
  ttlDays: number;
  applySchema: boolean;
  /**
   * Whether opening applies pending schema steps (FAULTLINE_MIGRATE_ON_START): yes embedded (the
   * all-in-one migrates itself) and against a single server; no for a cluster, where
   * `faultline migrate --apply` runs the ON CLUSTER DDL once. Without it, a schema that is behind
   * is refused with what to run.
   */
  migrate: boolean;
  /** FAULTLINE_CLICKHOUSE_CLUSTER: the cluster the schema is ON (server mode only), or null. */
  cluster: string | null;
}

export function resolveStoreOptions(
  options: StoreOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): ResolvedStoreOptions {
  const url = options.url ?? (env.FAULTLINE_CLICKHOUSE_URL || undefined);
  if (url !== undefined) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error(
        `FAULTLINE_CLICKHOUSE_URL / url must be an http(s) URL such as http://127.0.0.1:8123, got ${JSON.stringify(url)}`,
      );
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new Error(
        `FAULTLINE_CLICKHOUSE_URL / url must use http or https (the ClickHouse HTTP interface), got ${parsed.protocol}`,
      );
    }
  }
  const cluster = resolveClusterName(env);
  const ttlRaw = options.ttlDays ?? env.FAULTLINE_TTL_DAYS ?? 0;
  const ttlOrigin = options.ttlDays !== undefined ? 'ttlDays' : 'FAULTLINE_TTL_DAYS';
  return {
    mode: url ? 'server' : 'embedded',
    dataDir: resolve(options.dataDir ?? (env.FAULTLINE_DATA_DIR || './.faultline/data')),
    url,
    username: options.username ?? (env.FAULTLINE_CLICKHOUSE_USER || undefined),
    password: options.password ?? (env.FAULTLINE_CLICKHOUSE_PASSWORD || undefined),
    database: assertIdentifier(
      options.database ?? (env.FAULTLINE_CLICKHOUSE_DATABASE || 'default'),
      'FAULTLINE_CLICKHOUSE_DATABASE / database',
    ),
    ttlDays: parseTtlDays(ttlRaw === '' ? 0 : ttlRaw, ttlOrigin),
    applySchema: options.applySchema ?? true,
    migrate: options.migrate ?? parseMigrateOnStart(env.FAULTLINE_MIGRATE_ON_START, !(url && cluster)),
    cluster: url && cluster ? cluster : null,
  };
}

function parseMigrateOnStart(raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw.trim() === '') return fallback;
  const v = raw.trim().toLowerCase();
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw new RangeError(
    `FAULTLINE_MIGRATE_ON_START=${raw} is not a boolean: give true (apply pending schema steps when opening) or false (refuse a schema that is behind; run \`faultline migrate --apply\`).`,
  );
}

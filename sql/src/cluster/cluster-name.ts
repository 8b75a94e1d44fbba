/** The environment variable that switches the schema to its cluster form. */
export const CLUSTER_ENV = 'FAULTLINE_CLICKHOUSE_CLUSTER';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

/**
 * The ClickHouse cluster named by `FAULTLINE_CLICKHOUSE_CLUSTER` (a `<remote_servers>` entry of the
 * server config), or undefined when unset or blank: the single-node schema then applies. The name
 * is spliced into DDL (`ON CLUSTER <name>`, `Distributed(<name>, …)`), which cannot take query
 * parameters, so anything but a plain identifier is refused.
 */
export function resolveClusterName(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const raw = env[CLUSTER_ENV];
  if (raw === undefined || raw.trim() === '') return undefined;
  return assertClusterName(raw.trim(), CLUSTER_ENV);
}

/** `name` if it is a plain ClickHouse identifier, else a RangeError naming `origin` and the fix. */
export function assertClusterName(name: string, origin = 'cluster'): string {
  if (!IDENTIFIER.test(name)) {
    throw new RangeError(
      `${origin} must be a ClickHouse cluster name: letters, digits and underscores, not starting with a digit ` +
        `(the name of a <remote_servers> entry, e.g. ${origin}=faultline), got ${JSON.stringify(name)}`,
    );
  }
  return name;
}

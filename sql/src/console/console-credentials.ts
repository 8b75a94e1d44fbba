/** A dedicated ClickHouse user for the console (server mode), see collector/README.md. */
export interface ConsoleCredentials {
  username: string;
  password?: string;
}

/**
 * `FAULTLINE_CLICKHOUSE_CONSOLE_USER` / `_CONSOLE_PASSWORD`: when set, console statements run as
 * that user (read-only, granted SELECT on Faultline's database only) instead of the store's.
 */
export function consoleCredentials(env: NodeJS.ProcessEnv = process.env): ConsoleCredentials | undefined {
  const username = env.FAULTLINE_CLICKHOUSE_CONSOLE_USER;
  if (!username) return undefined;
  return { username, password: env.FAULTLINE_CLICKHOUSE_CONSOLE_PASSWORD || undefined };
}

import { execFileSync } from 'node:child_process';

// The MariaDB and Redis servers every machine and CI run (see scripts/demo/fixtures.mjs for the
// same environment variables). Reached through their command-line clients, which come with them.
export const MARIADB = {
  host: process.env.MYSQL_HOST ?? '127.0.0.1',
  port: Number(process.env.MYSQL_PORT ?? 3306),
  user: process.env.MYSQL_USER ?? 'root',
  password: process.env.MYSQL_PASSWORD ?? '',
  database: process.env.MYSQL_DATABASE ?? 'test',
};
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Runs SQL on MariaDB; returns the rows' first column. */
export function mariadb(sql: string): string[] {
  const args = [
    '-h',
    MARIADB.host,
    '-P',
    String(MARIADB.port),
    '-u',
    MARIADB.user,
    '-N',
    '-B',
    MARIADB.database,
  ];
  if (MARIADB.password) args.push(`-p${MARIADB.password}`);
  const out = execFileSync('mysql', [...args, '-e', sql], { encoding: 'utf8' });
  return out.split('\n').filter(Boolean);
}

export function redis(...args: string[]): string {
  return execFileSync('redis-cli', ['-u', REDIS_URL, ...args], { encoding: 'utf8' }).trim();
}

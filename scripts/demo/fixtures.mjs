// Tables and connections of the demo. Every name starts with fl_demo_ (tests of other parts share
// these servers). Connection settings follow the usual environment variables.
export const PG = {
  host: process.env.PGHOST ?? '127.0.0.1',
  port: Number(process.env.PGPORT ?? 5432),
  user: process.env.PGUSER ?? 'postgres',
  database: process.env.PGDATABASE ?? 'test',
  password: process.env.PGPASSWORD,
};
export const MARIADB = {
  host: process.env.MYSQL_HOST ?? '127.0.0.1',
  port: Number(process.env.MYSQL_PORT ?? 3306),
  user: process.env.MYSQL_USER ?? 'root',
  password: process.env.MYSQL_PASSWORD ?? '',
  database: process.env.MYSQL_DATABASE ?? 'test',
};
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Creates the demo tables (idempotent). Runs in the uninstrumented parent: setup is not traffic. */
export async function createFixtures() {
  const { default: pg } = await import('pg');
  const client = new pg.Client(PG);
  try {
    await client.connect();
  } catch (err) {
    throw new Error(
      `PostgreSQL at ${PG.host}:${PG.port} (db ${PG.database}) is not reachable: ${err.message}. Set PGHOST/PGPORT/PGUSER/PGDATABASE.`,
    );
  }
  await client.query(
    'CREATE TABLE IF NOT EXISTS fl_demo_orders (id text PRIMARY KEY, created_at timestamptz DEFAULT now())',
  );
  await client.query('CREATE TABLE IF NOT EXISTS fl_demo_stock (id text PRIMARY KEY, n int NOT NULL)');
  await client.end();

  const mysql = await import('mysql2/promise');
  let conn;
  try {
    conn = await mysql.createConnection(MARIADB);
  } catch (err) {
    throw new Error(
      `MariaDB at ${MARIADB.host}:${MARIADB.port} (db ${MARIADB.database}) is not reachable: ${err.message}. Set MYSQL_HOST/MYSQL_PORT/MYSQL_USER/MYSQL_PASSWORD/MYSQL_DATABASE.`,
    );
  }
  await conn.query(
    'CREATE TABLE IF NOT EXISTS fl_demo_ledger (id VARCHAR(128) PRIMARY KEY, amount INT NOT NULL)',
  );
  await conn.end();
}

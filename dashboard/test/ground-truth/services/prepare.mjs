// Creates the ground-truth tables and the deadlock's stock rows, run with plain `node` (no preload)
// before the services start: setup is not traffic. Usage: node prepare.mjs <order id of pg_deadlock>
import mysql from 'mysql2/promise';
import pg from 'pg';
import { MARIADB, PG } from '../../../../scripts/demo/fixtures.mjs';

const order = process.argv[2];
const client = new pg.Client(PG);
await client.connect();
await client.query('CREATE TABLE IF NOT EXISTS fl_gt_orders (id text PRIMARY KEY)');
await client.query('CREATE TABLE IF NOT EXISTS fl_gt_stock (id text PRIMARY KEY, n int NOT NULL)');
await client.query('INSERT INTO fl_gt_stock (id, n) VALUES ($1, 10), ($2, 10) ON CONFLICT (id) DO NOTHING', [
  `${order}:a`,
  `${order}:b`,
]);
await client.end();
const conn = await mysql.createConnection(MARIADB);
await conn.query(
  'CREATE TABLE IF NOT EXISTS fl_gt_ledger (id VARCHAR(128) PRIMARY KEY, amount INT NOT NULL)',
);
await conn.end();

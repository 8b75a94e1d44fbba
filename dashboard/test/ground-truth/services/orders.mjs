// Ground-truth service "orders": PostgreSQL, MariaDB, Redis and the upstream stock API. Each
// scenario makes exactly the calls ../scenario.ts counts for it; keep the two in step.
import { Redis } from 'ioredis';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { deadlockThenRetry } from '../../../../scripts/demo/deadlock.mjs';
import { MARIADB, PG, REDIS_URL } from '../../../../scripts/demo/fixtures.mjs';
import { StepFailed, serve } from '../../../../scripts/demo/service-runtime.mjs';

const upstream = process.env.UPSTREAM_URL;
const pool = new pg.Pool({ ...PG, max: 2 });
const ledger = mysql.createPool({ ...MARIADB, connectionLimit: 2 });
const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
// Connected before the first request: a connect outside a request would still be no call, but
// waiting keeps every span of this process inside a request.
await new Promise((ok, ko) => redis.once('ready', ok).once('error', ko));

const INSERT_ORDER = 'INSERT INTO fl_gt_orders (id) VALUES ($1)';
const INSERT_LEDGER = 'INSERT INTO fl_gt_ledger (id, amount) VALUES (?, ?)';

const SCENARIOS = {
  all_ok: async (order) => {
    await pool.query(INSERT_ORDER, [order]);
    await redis.set(`fl_gt:order:${order}`, 'placed', 'EX', 600);
  },
  pg_unique: async (order) => {
    await pool.query(INSERT_ORDER, [order]);
    try {
      await pool.query(INSERT_ORDER, [order]);
    } catch (err) {
      if (err.code !== '23505') throw err;
      throw new StepFailed(422, { reason: 'order exists' });
    }
  },
  // 8 statements (one fails with 40P01), then the failed one again: see scripts/demo/deadlock.mjs.
  pg_deadlock: (order) => deadlockThenRetry(pg, PG, 'fl_gt_stock', [`${order}:a`, `${order}:b`]),
  mariadb_dup: async (order) => {
    await ledger.query(INSERT_LEDGER, [order, 1200]);
    try {
      await ledger.query(INSERT_LEDGER, [order, 1200]);
    } catch (err) {
      // Already recorded: the insert is idempotent for the caller, the request succeeds.
      if (err.errno !== 1062) throw err;
    }
  },
  redis_wrongtype: async (order) => {
    const key = `fl_gt:order:${order}`;
    await redis.set(key, 'placed', 'EX', 600);
    try {
      await redis.lpush(key, 'line-item');
    } catch (err) {
      if (!String(err.message).startsWith('WRONGTYPE')) throw err;
      throw new StepFailed(422, { reason: 'cart is not a list' });
    }
  },
  stock_503: async () => {
    // A hand-written repeat loop, no withRetry: the upstream fails the first three.
    for (let tries = 1; ; tries++) {
      const res = await fetch(`${upstream}/v1/stock?fault=503&times=3`);
      await res.arrayBuffer();
      if (res.ok) return;
      if (tries === 5) throw new StepFailed(503, { reason: 'stock unavailable' });
      await new Promise((r) => setTimeout(r, 20));
    }
  },
};

serve(
  {
    'POST /place': async ({ scenario, order }) => {
      await SCENARIOS[scenario](order);
      return { ok: true };
    },
  },
  async () => {
    await pool.end();
    await ledger.end();
    redis.disconnect();
  },
);

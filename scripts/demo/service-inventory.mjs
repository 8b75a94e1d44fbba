// Demo service "inventory": PostgreSQL (orders, stock) and Redis (reservations). Run under the
// preload by scripts/demo.mjs.
import { Redis } from 'ioredis';
import pg from 'pg';
import { deadlockThenRetry } from './deadlock.mjs';
import { PG, REDIS_URL } from './fixtures.mjs';
import { StepFailed, serve, statusForError } from './service-runtime.mjs';

const pool = new pg.Pool({ ...PG, max: 6 });
const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
// An idle client the server drops emits 'error' on the pool, and ioredis reports connection
// errors as events: heard here, so they never end the process; the failing calls report them.
pool.on('error', (err) => console.error(`postgresql pool: ${err.message}`));
redis.on('error', (err) => console.error(`redis: ${err.message}`));

async function step(fn, system) {
  try {
    return await fn();
  } catch (err) {
    const { status, envelope } = statusForError(err?.cause ?? err, { system });
    throw new StepFailed(status, { step: 'inventory', class: envelope.class, code: envelope.code });
  }
}

serve(
  {
    'POST /reserve': async ({ scenario, order }) => {
      await step(() => pool.query('INSERT INTO fl_demo_orders (id) VALUES ($1)', [order]), 'postgresql');
      if (scenario === 'order_duplicate') {
        // The same order id again: a unique violation from the real server.
        await step(() => pool.query('INSERT INTO fl_demo_orders (id) VALUES ($1)', [order]), 'postgresql');
      }
      const [a, b] = [`${order}:a`, `${order}:b`];
      await step(
        () =>
          pool.query('INSERT INTO fl_demo_stock (id, n) VALUES ($1, 10), ($2, 10) ON CONFLICT DO NOTHING', [
            a,
            b,
          ]),
        'postgresql',
      );
      // stock_deadlock: a real deadlock, then withRetry runs the aborted statement again.
      await step(
        () =>
          scenario === 'stock_deadlock'
            ? deadlockThenRetry(pg, PG, 'fl_demo_stock', [a, b])
            : pool.query('UPDATE fl_demo_stock SET n = n - 1 WHERE id = $1', [a]),
        'postgresql',
      );
      const key = `fl_demo:reservation:${order}`;
      await step(() => redis.set(key, 'reserved', 'EX', 600), 'redis');
      if (scenario === 'cache_wrongtype') await step(() => redis.lpush(key, 'line-item'), 'redis');
      return { ok: true };
    },
  },
  async () => {
    await pool.end();
    redis.disconnect();
  },
);

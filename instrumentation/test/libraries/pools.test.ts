import { createPool } from 'generic-pool';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { classifyError } from '../../src/error/classify-error.js';
import { freePort, rejectionOf } from './helpers.js';

// Connection pools in front of the real PostgreSQL (pg-pool) and generic-pool: a checkout that
// waits too long, and a pool whose database is down.
const ctx = { system: 'postgresql' } as const;
const config = { host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test' };

describe('pool checkout failures', () => {
  it('pg-pool with the database down → ECONNREFUSED, transient', async () => {
    const pool = new pg.Pool({ ...config, port: await freePort() });
    try {
      const err = await rejectionOf(pool.query('SELECT 1'));
      // The server is not listening: it may come back (restart, failover).
      expect(classifyError(err, ctx)).toMatchObject({
        class: 'transient',
        code: 'ECONNREFUSED',
        source: 'db',
        retryable: true,
      });
    } finally {
      await pool.end();
    }
  });

  it('pg-pool checkout timeout ("timeout exceeded when trying to connect") → transient', async () => {
    const pool = new pg.Pool({ ...config, max: 1, connectionTimeoutMillis: 100 });
    const held = await pool.connect();
    try {
      const err = await rejectionOf(pool.connect());
      // Every connection was busy: one comes back when its holder releases it.
      expect(classifyError(err, ctx)).toMatchObject({
        class: 'transient',
        code: 'POOL_CONNECT_TIMEOUT',
        source: 'db',
        retryable: true,
      });
    } finally {
      held.release();
      await pool.end();
    }
  });

  it('generic-pool acquire timeout → POOL_ACQUIRE_TIMEOUT, transient', async () => {
    const pool = createPool(
      { create: async () => ({}), destroy: async () => undefined },
      { max: 1, acquireTimeoutMillis: 50 },
    );
    const resource = await pool.acquire();
    try {
      const err = await rejectionOf(pool.acquire());
      // The same wait as above, in generic-pool's words ("ResourceRequest timed out").
      expect(classifyError(err, ctx)).toMatchObject({
        class: 'transient',
        code: 'POOL_ACQUIRE_TIMEOUT',
        source: 'db',
        retryable: true,
      });
    } finally {
      await pool.release(resource);
      await pool.drain();
      await pool.clear();
    }
  });
});

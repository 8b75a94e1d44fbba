// Runs the demo's deadlock (scripts/demo/deadlock.mjs) against the local PostgreSQL, in one of two
// orders: `c1-victim`, the usual one, and `c2-victim`, where c2's GIVE a reaches the server only
// after c1's one deadlock check has passed, so PostgreSQL's check on c2 aborts c2 instead — what a
// loaded machine does now and then, and what crashed the demo's inventory service (its rejection
// was unobserved). c2's deadlock_timeout is cut from 10 s to 300 ms so the test waits less; the
// order of events is the same. Prints one JSON line: whether it resolved, what escaped, and the
// stock rows afterwards (which statement attempt 2 ran again).
import pg from 'pg';
import { deadlockThenRetry } from '../../../scripts/demo/deadlock.mjs';
import { PG } from '../../../scripts/demo/fixtures.mjs';

const mode = process.argv[2];
const escaped = [];
process.on('unhandledRejection', (err) => escaped.push(String(err?.message ?? err)));

class Client extends pg.Client {
  constructor(config) {
    const slow = config.options?.includes('deadlock_timeout=10000');
    super({ ...config, options: slow ? '-c deadlock_timeout=300' : config.options });
    this.slow = slow;
  }

  query(text, values, ...rest) {
    if (
      mode === 'c2-victim' &&
      this.slow &&
      !this.held &&
      /n \+ 1/.test(text) &&
      values?.[0]?.endsWith(':a')
    ) {
      this.held = true;
      return new Promise((r) => setTimeout(r, 400)).then(() => super.query(text, values));
    }
    return super.query(text, values, ...rest);
  }
}

const setup = new pg.Client(PG);
await setup.connect();
await setup.query('CREATE TABLE IF NOT EXISTS fl_demo_stock (id text PRIMARY KEY, n int NOT NULL)');
const order = `fl-test-deadlock-${mode}-${process.pid}-${Date.now()}`;
const [a, b] = [`${order}:a`, `${order}:b`];
await setup.query('INSERT INTO fl_demo_stock (id, n) VALUES ($1, 10), ($2, 10)', [a, b]);
let outcome;
try {
  const r = await deadlockThenRetry({ Client }, PG, 'fl_demo_stock', [a, b]);
  outcome = { resolved: true, rowCount: r.rowCount };
} catch (err) {
  outcome = { resolved: false, error: `${err.code ?? ''} ${err.message}` };
}
await new Promise((r) => setTimeout(r, 200));
const { rows } = await setup.query('SELECT id, n FROM fl_demo_stock WHERE id IN ($1, $2) ORDER BY id', [
  a,
  b,
]);
await setup.query('DELETE FROM fl_demo_stock WHERE id IN ($1, $2)', [a, b]);
await setup.end();
console.log(JSON.stringify({ ...outcome, escaped, stock: rows.map((r) => r.n) }));

// What each demo request does wrong. The driver cycles through this list (expanded by weight), so
// every class from every source shows up within the first few seconds of `npm run demo`.
export const SCENARIOS = [
  { name: 'ok', weight: 8, what: 'every step succeeds' },
  {
    name: 'charge_rate_limited',
    weight: 2,
    what: 'upstream 429 + Retry-After: 1 once; withRetry waits and succeeds',
  },
  { name: 'charge_unavailable', weight: 2, what: 'upstream 503 twice; withRetry backs off and succeeds' },
  { name: 'charge_invalid', weight: 1, what: 'upstream 400 (validation): no retry, the workflow fails' },
  { name: 'charge_unauthorized', weight: 1, what: 'upstream 401 (authentication)' },
  { name: 'customer_not_found', weight: 1, what: 'upstream 404 (permanent)' },
  {
    name: 'charge_declined_200',
    weight: 1,
    what: 'upstream 200 {"ok":false} (an error in a success status)',
  },
  { name: 'order_duplicate', weight: 1, what: 'PostgreSQL unique violation 23505' },
  {
    name: 'stock_deadlock',
    weight: 1,
    what: 'a real PostgreSQL deadlock 40P01; withRetry re-runs the transaction',
  },
  { name: 'cache_wrongtype', weight: 1, what: 'Redis WRONGTYPE' },
  { name: 'ledger_duplicate', weight: 1, what: 'MariaDB duplicate key 1062' },
  {
    name: 'dynamo_throttled',
    weight: 2,
    what: 'AWS SDK ThrottlingException (real DynamoDB client, local endpoint); retried',
  },
  {
    name: 'coupon_misrouted',
    weight: 1,
    what: 'upstream 400, then the identical call repeated: a misrouted retry',
  },
];

/** The request schedule: scenario names in a fixed interleaved order, weights respected. */
export function scenarioCycle() {
  const queues = SCENARIOS.map((s) => ({ name: s.name, left: s.weight }));
  const out = [];
  while (queues.some((q) => q.left > 0)) {
    for (const q of queues) {
      if (q.left > 0) {
        out.push(q.name);
        q.left--;
      }
    }
  }
  return out;
}

// What each demo request does wrong, and what it should show on the dashboard. The driver cycles
// through this list (expanded by weight), so every class from every source shows up within the
// first few seconds of `npm run demo`.
//
// `expect` is written BY HAND from the demo services (service-*.mjs), never computed by
// Faultline's rules, so a person can hold the Overview against it:
// - failures: first-hand failures by 'class/source', counted once where they happened (an echo —
//   a service answering an error because its call failed, the caller's call to it — is not one).
// - calls: logical outbound calls per service, every attempt counted; pool checkouts, connects and
//   the HTTP request inside an SDK operation are not calls.
// - retries: attempts after the first (withRetry, a hand-written repeat, the SDK's own retry).
// - fails: the workflow's answer to the driver is an error.
//
// Every workflow: checkout → inventory /reserve, → payments /charge, → upstream /v1/notify
// (3 calls); inventory: INSERT order, INSERT stock rows, UPDATE stock, Redis SET (4 calls);
// payments: upstream POST /v1/charges, MariaDB INSERT ledger, DynamoDB PutItem (3 calls).
// A failing step ends its service's work: the calls after it are not made.
export const SCENARIOS = [
  {
    name: 'ok',
    weight: 8,
    what: 'every step succeeds',
    expect: { failures: {}, calls: { checkout: 3, inventory: 4, payments: 3 }, retries: 0, fails: false },
  },
  {
    name: 'charge_rate_limited',
    weight: 2,
    what: 'upstream 429 + Retry-After: 1 once; withRetry waits and succeeds',
    // payments: charge 429, charge 200 (attempt 2), ledger, receipt.
    expect: {
      failures: { 'rate_limit/http': 1 },
      calls: { checkout: 3, inventory: 4, payments: 4 },
      retries: 1,
      fails: false,
    },
  },
  {
    name: 'charge_unavailable',
    weight: 2,
    what: 'upstream 503 twice; withRetry backs off and succeeds',
    // payments: charge 503, 503, 200 (attempts 2 and 3), ledger, receipt.
    expect: {
      failures: { 'transient/http': 2 },
      calls: { checkout: 3, inventory: 4, payments: 5 },
      retries: 2,
      fails: false,
    },
  },
  {
    name: 'charge_invalid',
    weight: 1,
    what: 'upstream 400 (validation): no retry, the workflow fails',
    // payments stops after the charge; checkout after payments (no notify).
    expect: {
      failures: { 'validation/http': 1 },
      calls: { checkout: 2, inventory: 4, payments: 1 },
      retries: 0,
      fails: true,
    },
  },
  {
    name: 'charge_unauthorized',
    weight: 1,
    what: 'upstream 401 (authentication)',
    expect: {
      failures: { 'authentication/http': 1 },
      calls: { checkout: 2, inventory: 4, payments: 1 },
      retries: 0,
      fails: true,
    },
  },
  {
    name: 'customer_not_found',
    weight: 1,
    what: 'upstream 404 (permanent)',
    expect: {
      failures: { 'permanent/http': 1 },
      calls: { checkout: 2, inventory: 4, payments: 1 },
      retries: 0,
      fails: true,
    },
  },
  {
    name: 'charge_declined_200',
    weight: 1,
    what: 'upstream 200 {"ok":false} sent chunked (no Content-Length): an error in a success status',
    expect: {
      failures: { 'permanent/http': 1 },
      calls: { checkout: 2, inventory: 4, payments: 1 },
      retries: 0,
      fails: true,
    },
  },
  {
    name: 'order_duplicate',
    weight: 1,
    what: 'PostgreSQL unique violation 23505',
    // inventory: INSERT order, the same INSERT again → 23505; checkout stops after inventory.
    expect: {
      failures: { 'validation/db': 1 },
      calls: { checkout: 1, inventory: 2, payments: 0 },
      retries: 0,
      fails: true,
    },
  },
  {
    name: 'stock_deadlock',
    weight: 1,
    what: 'a real PostgreSQL deadlock 40P01; withRetry re-runs the aborted statement',
    // inventory: INSERT order, INSERT stock, the deadlock's 8 statements (one 40P01) and the
    // aborted one again (deadlock.mjs) instead of the plain UPDATE, Redis SET = 12.
    expect: {
      failures: { 'transient/db': 1 },
      calls: { checkout: 3, inventory: 12, payments: 3 },
      retries: 1,
      fails: false,
    },
  },
  {
    name: 'cache_wrongtype',
    weight: 1,
    what: 'Redis WRONGTYPE',
    // inventory: the usual 4, then LPUSH on the string key → WRONGTYPE.
    expect: {
      failures: { 'validation/db': 1 },
      calls: { checkout: 1, inventory: 5, payments: 0 },
      retries: 0,
      fails: true,
    },
  },
  {
    name: 'ledger_duplicate',
    weight: 1,
    what: 'MariaDB duplicate key 1062',
    // payments: charge, ledger INSERT, the same INSERT → 1062 (no receipt).
    expect: {
      failures: { 'validation/db': 1 },
      calls: { checkout: 2, inventory: 4, payments: 3 },
      retries: 0,
      fails: true,
    },
  },
  {
    name: 'dynamo_throttled',
    weight: 2,
    what: 'AWS SDK ThrottlingException (real DynamoDB client, local endpoint); the SDK retries by itself',
    // payments: charge, ledger, PutItem attempt 1 throttled, attempt 2 ok (two attempts, two calls).
    expect: {
      failures: { 'rate_limit/sdk': 1 },
      calls: { checkout: 3, inventory: 4, payments: 4 },
      retries: 1,
      fails: false,
    },
  },
  {
    name: 'coupon_misrouted',
    weight: 1,
    what: 'upstream 400, then the identical call repeated: a misrouted retry',
    // checkout: inventory, payments, coupon 400, the same coupon call → 400 (no notify).
    expect: {
      failures: { 'validation/http': 2 },
      calls: { checkout: 4, inventory: 4, payments: 3 },
      retries: 1,
      fails: true,
    },
  },
  {
    name: 'notify_unavailable',
    weight: 1,
    what: 'upstream 503 once on notify; checkout repeats the call by hand and succeeds',
    // checkout: inventory, payments, notify 503, notify 200.
    expect: {
      failures: { 'transient/http': 1 },
      calls: { checkout: 4, inventory: 4, payments: 3 },
      retries: 1,
      fails: false,
    },
  },
];

export const DEMO_SERVICES = ['checkout', 'inventory', 'payments'];

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

/**
 * What a run should show, given how many workflows of each scenario it sent: the hand-written
 * per-scenario expectations above, multiplied and added up.
 */
export function expectedTotals(ran) {
  const totals = { failures: {}, calls: {}, retries: 0, failedWorkflows: 0 };
  for (const service of DEMO_SERVICES) totals.calls[service] = 0;
  for (const scenario of SCENARIOS) {
    const n = ran[scenario.name] ?? 0;
    if (n === 0) continue;
    const { failures, calls, retries, fails } = scenario.expect;
    for (const [cell, count] of Object.entries(failures)) {
      totals.failures[cell] = (totals.failures[cell] ?? 0) + n * count;
    }
    for (const service of DEMO_SERVICES) totals.calls[service] += n * calls[service];
    totals.retries += n * retries;
    if (fails) totals.failedWorkflows += n;
  }
  return totals;
}

// The ground truth of the ground-truth fixture: twelve requests sent one after the other to `edge`,
// each annotated BY HAND with what the fixture services (./services/*.mjs) and the upstream
// (./upstream.ts) do for it. Nothing here is computed by Faultline's rules; the totals at the end
// are written out literally and only cross-checked against the per-request rows by plain addition.
//
// Topology (every service under `node --import @faultline/instrumentation/register`):
//   test ──▶ edge ──▶ orders ──▶ PostgreSQL, MariaDB, Redis, upstream GET /v1/stock
//                └──▶ billing ──▶ upstream POST /v1/charges, /v1/coupons; DynamoDB (real AWS SDK)
// The upstream (HTTP API + DynamoDB endpoint) runs uninstrumented in the test process, so a failure
// it answers is first-hand in the service that called it.
//
// Counting words, as issue #9 defines them:
// - a *call* is one logical outbound operation, each attempt counted: an HTTP request, a SQL
//   statement, a Redis command, an SDK operation attempt. Pool checkouts, connects that succeed and
//   the HTTP request inside an SDK operation are not calls. Server spans are not calls.
// - a *first-hand* failure is counted once, where it happened: the failed statement, command or
//   request to the uninstrumented upstream, or a handler's own refusal with no failing call.
// - a *propagated* failure is an echo of one: a server span that answered an error because a call
//   inside it failed, and a client span whose instrumented callee's server span failed.
// - a *retry* is any attempt after the first of the same logical call (hand-written repeat,
//   withRetry, or the SDK's own retry loop).

export type Service = 'edge' | 'orders' | 'billing';
export const SERVICES: readonly Service[] = ['edge', 'orders', 'billing'];

export interface FirstHand {
  service: Service;
  class: string;
  source: string;
  code: string;
  count: number;
}

export interface RequestTruth {
  /** 1-based position in the run; the correlation id is `<prefix>-<n>`. */
  n: number;
  /** Sent as the request body's `scenario`; the services switch on it. */
  scenario: string;
  /** The edge answers requests without an `item` itself (400): only `edge_invalid` omits it. */
  item: boolean;
  /** What edge answers the test. */
  status: number;
  calls: Record<Service, number>;
  firstHand: FirstHand[];
  /** Echo rows per service (server spans that failed because of a call, client spans of a failed callee). */
  propagated: Record<Service, number>;
  retries: number;
  misrouted: number;
  /** For a failed request (status ≥ 400): where its first first-hand failure happened. */
  firstFailure?: { service: Service; source: string; code: string };
}

const none = { edge: 0, orders: 0, billing: 0 };

export const REQUESTS: readonly RequestTruth[] = [
  {
    // edge → orders: INSERT fl_gt_orders, Redis SET (2 calls); edge → billing: upstream POST
    // /v1/charges 200, DynamoDB PutItem 200 (2 calls). edge made 2 calls.
    n: 1,
    scenario: 'all_ok',
    item: true,
    status: 200,
    calls: { edge: 2, orders: 2, billing: 2 },
    firstHand: [],
    propagated: none,
    retries: 0,
    misrouted: 0,
  },
  {
    // orders: INSERT (ok), the same INSERT again → 23505 (a repeat after a success is not a retry).
    // orders answers 422 (echo 1: its server span); edge's call gets 422 (echo 2) and edge answers
    // 422 (echo 3).
    n: 2,
    scenario: 'pg_unique',
    item: true,
    status: 422,
    calls: { edge: 1, orders: 2, billing: 0 },
    firstHand: [{ service: 'orders', class: 'validation', source: 'db', code: '23505', count: 1 }],
    propagated: { edge: 2, orders: 1, billing: 0 },
    retries: 0,
    misrouted: 0,
    firstFailure: { service: 'orders', source: 'db', code: '23505' },
  },
  {
    // orders, attempt 1 of withRetry: two connections c1, c2 — c1 BEGIN, c2 BEGIN, c1 UPDATE a,
    // c2 UPDATE b, c2 UPDATE a (waits for c1), c1 UPDATE b → 40P01 (c1 has the short
    // deadlock_timeout, so c1 is the victim), c1 ROLLBACK, c2 ROLLBACK: 8 statements, 1 failed.
    // Attempt 2: c1 UPDATE b again, ok. 9 calls, 1 retry, the request succeeds.
    n: 3,
    scenario: 'pg_deadlock',
    item: true,
    status: 200,
    calls: { edge: 1, orders: 9, billing: 0 },
    firstHand: [{ service: 'orders', class: 'transient', source: 'db', code: '40P01', count: 1 }],
    propagated: none,
    retries: 1,
    misrouted: 0,
  },
  {
    // orders: MariaDB INSERT ledger (ok), the same INSERT → 1062, which orders treats as "already
    // recorded" and answers 200: a first-hand failure inside a successful request, no echo.
    n: 4,
    scenario: 'mariadb_dup',
    item: true,
    status: 200,
    calls: { edge: 1, orders: 2, billing: 0 },
    firstHand: [{ service: 'orders', class: 'validation', source: 'db', code: '1062', count: 1 }],
    propagated: none,
    retries: 0,
    misrouted: 0,
  },
  {
    // orders: Redis SET key (ok), LPUSH key → WRONGTYPE; orders answers 422, edge echoes it.
    n: 5,
    scenario: 'redis_wrongtype',
    item: true,
    status: 422,
    calls: { edge: 1, orders: 2, billing: 0 },
    firstHand: [{ service: 'orders', class: 'validation', source: 'db', code: 'WRONGTYPE', count: 1 }],
    propagated: { edge: 2, orders: 1, billing: 0 },
    retries: 0,
    misrouted: 0,
    firstFailure: { service: 'orders', source: 'db', code: 'WRONGTYPE' },
  },
  {
    // orders: GET upstream /v1/stock?fault=503&times=3 in a hand-written loop: 503, 503, 503, 200.
    // 4 calls, 3 first-hand transient failures, 3 retries; the request succeeds.
    n: 6,
    scenario: 'stock_503',
    item: true,
    status: 200,
    calls: { edge: 1, orders: 4, billing: 0 },
    firstHand: [{ service: 'orders', class: 'transient', source: 'http', code: '503', count: 3 }],
    propagated: none,
    retries: 3,
    misrouted: 0,
  },
  {
    // billing: POST upstream /v1/coupons?fault=400 → 400, then the identical call again → 400
    // (a misrouted retry: the first answer was not retryable). Both are first-hand; the repeat is
    // attempt 2, so also a retry. billing answers 422, edge echoes it.
    n: 7,
    scenario: 'coupon_400',
    item: true,
    status: 422,
    calls: { edge: 1, orders: 0, billing: 2 },
    firstHand: [{ service: 'billing', class: 'validation', source: 'http', code: '400', count: 2 }],
    propagated: { edge: 2, orders: 0, billing: 1 },
    retries: 1,
    misrouted: 1,
    firstFailure: { service: 'billing', source: 'http', code: '400' },
  },
  {
    // billing: DynamoDB PutItem on fl_gt_throttled: the endpoint throttles the first attempt
    // (400 ThrottlingException), the SDK retries by itself, the second attempt succeeds.
    // 2 calls (two attempts of one operation; the two inner HTTP requests are not calls),
    // 1 first-hand rate_limit failure, 1 retry; the request succeeds.
    n: 8,
    scenario: 'ddb_throttled',
    item: true,
    status: 200,
    calls: { edge: 1, orders: 0, billing: 2 },
    firstHand: [
      { service: 'billing', class: 'rate_limit', source: 'sdk', code: 'ThrottlingException', count: 1 },
    ],
    propagated: none,
    retries: 1,
    misrouted: 0,
  },
  {
    // billing: POST upstream /v1/charges?fault=ok_false → 200 {"ok":false,"error":{"code":
    // "card_declined"}} written in two chunks (no Content-Length). billing answers 402, edge echoes.
    n: 9,
    scenario: 'charge_ok_false',
    item: true,
    status: 402,
    calls: { edge: 1, orders: 0, billing: 1 },
    firstHand: [{ service: 'billing', class: 'permanent', source: 'http', code: 'card_declined', count: 1 }],
    propagated: { edge: 2, orders: 0, billing: 1 },
    retries: 0,
    misrouted: 0,
    firstFailure: { service: 'billing', source: 'http', code: 'card_declined' },
  },
  {
    // No item: edge refuses the request itself (400) before calling anything. The failure is
    // first-hand on edge's server span; there is no call.
    n: 10,
    scenario: 'edge_invalid',
    item: false,
    status: 400,
    calls: none,
    firstHand: [{ service: 'edge', class: 'validation', source: 'http', code: '400', count: 1 }],
    propagated: none,
    retries: 0,
    misrouted: 0,
    firstFailure: { service: 'edge', source: 'http', code: '400' },
  },
  {
    // Request 6 again, byte for byte the same upstream URL, under a new correlation id: its first
    // call is attempt 1 again (attempts are counted within one correlation id).
    n: 11,
    scenario: 'stock_503',
    item: true,
    status: 200,
    calls: { edge: 1, orders: 4, billing: 0 },
    firstHand: [{ service: 'orders', class: 'transient', source: 'http', code: '503', count: 3 }],
    propagated: none,
    retries: 3,
    misrouted: 0,
  },
  {
    // Request 10 again.
    n: 12,
    scenario: 'edge_invalid',
    item: false,
    status: 400,
    calls: none,
    firstHand: [{ service: 'edge', class: 'validation', source: 'http', code: '400', count: 1 }],
    propagated: none,
    retries: 0,
    misrouted: 0,
    firstFailure: { service: 'edge', source: 'http', code: '400' },
  },
];

/**
 * The run's totals, written out by hand from the table above (not summed by code; the test adds the
 * rows up only to catch a typo here).
 */
export const TOTALS = {
  requests: 12,
  // Requests 2, 5, 7, 9, 10, 12 answered an error.
  failedRequests: 6,
  // edge: 2 (req 1) + 1 each for req 2–9 and 11 = 11; orders: 2+2+9+2+2+4+4 = 25;
  // billing: 2+2+2+1 = 7.
  calls: { edge: 11, orders: 25, billing: 7 },
  totalCalls: 43,
  // orders: 23505, 40P01, 1062, WRONGTYPE, 3×503, 3×503 = 10; billing: 2×400, ThrottlingException,
  // card_declined = 4; edge: 2×400 = 2.
  firstHand: { edge: 2, orders: 10, billing: 4 },
  totalFirstHand: 16,
  // The same without validation (caller faults), the budget's default: orders 40P01 + 6×503 = 7;
  // billing ThrottlingException + card_declined = 2; edge 0.
  firstHandWithoutValidation: { edge: 0, orders: 7, billing: 2 },
  totalFirstHandWithoutValidation: 9, // 0 + 7 + 2
  // edge: client + server span for each of req 2, 5, 7, 9 = 8; orders: server span of req 2 and 5;
  // billing: server span of req 7 and 9.
  propagated: { edge: 8, orders: 2, billing: 2 },
  // The budget's outbound-calls SLI counts failures of calls (client spans) only; a server's own
  // rejection is not a call. First-hand failed calls: orders 10 (all its failures are calls);
  // billing 4 (2×400, ThrottlingException, card_declined: each a call to the upstream or DynamoDB);
  // edge 0 (its only first-hand failures are its own 400 answers, req 10 and 12).
  firstHandCalls: { edge: 0, orders: 10, billing: 4 },
  // Without validation: orders 40P01 + 6×503 = 7; billing ThrottlingException + card_declined = 2.
  firstHandCallsWithoutValidation: { edge: 0, orders: 7, billing: 2 },
  // Echoed calls: edge's client call of req 2 (orders 422), 5 (orders 422), 7 (billing 422) and 9
  // (billing 402) = 4; orders and billing call only the uninstrumented upstream, PostgreSQL,
  // MariaDB, Redis and DynamoDB, whose failures are first-hand.
  propagatedCalls: { edge: 4, orders: 0, billing: 0 },
  // class × source, first-hand only.
  matrix: {
    'transient/http': 6,
    'validation/http': 4,
    'validation/db': 3,
    'transient/db': 1,
    'rate_limit/sdk': 1,
    'permanent/http': 1,
  } as Record<string, number>,
  // The top pair by first-hand count, with or without validation.
  headline: { class: 'transient', source: 'http', failures: 6 },
  // service/class/source/code → first-hand failures.
  codes: {
    'orders/transient/http/503': 6,
    'billing/validation/http/400': 2,
    'edge/validation/http/400': 2,
    'orders/validation/db/23505': 1,
    'orders/transient/db/40P01': 1,
    'orders/validation/db/1062': 1,
    'orders/validation/db/WRONGTYPE': 1,
    'billing/rate_limit/sdk/ThrottlingException': 1,
    'billing/permanent/http/card_declined': 1,
  } as Record<string, number>,
  // Failed workflows by their first first-hand failure: service/source/code → workflows.
  firstFailures: {
    'orders/db/23505': 1,
    'orders/db/WRONGTYPE': 1,
    'billing/http/400': 1,
    'billing/http/card_declined': 1,
    'edge/http/400': 2,
  } as Record<string, number>,
  // 3 + 3 (stock loops) + 1 (deadlock withRetry) + 1 (coupon repeat) + 1 (SDK retry).
  retries: 9,
  misrouted: 1,
};

import type { TimedCall } from './send-timed-calls';

const MIN = 60_000;
const PAY = { 'server.address': 'api.pay.example', 'url.full': 'https://api.pay.example/charge' };
const STOCK = {
  'server.address': 'inventory.internal',
  'server.port': 8080,
  'url.full': 'http://inventory.internal:8080/stock',
};

/**
 * The shop of the time tests, laid out by hand relative to `base` (a whole minute just before the
 * send), so every expected number below is counted from this table:
 *   40 … 21 min ago  version 1.0.0: each minute 2 successful POST /charge to api.pay.example, and
 *                    from 40 to 31 min ago one more that fails rate_limit 429 "Too Many Requests:
 *                    slow down" (10 failures)
 *   20 … 5 min ago   version 2.0.0 (deployed 20 min ago + 7 s: the first 2.0.0 span): each minute 2
 *                    successful POST /charge; from 20 to 11 min ago one GET /stock to
 *                    inventory.internal:8080 failing transient 503 "Upstream unavailable (pool
 *                    exhausted)" (10), from 10 to 6 min ago one POST /charge failing validation 422
 *                    "card number invalid" (5)
 */
export function steerScenario(base: number): { calls: TimedCall[]; deployAtMs: number } {
  const calls: TimedCall[] = [];
  const at = (minAgo: number, second: number) => base - minAgo * MIN + second * 1000;
  for (let m = 40; m >= 5; m--) {
    const version = m > 20 ? '1.0.0' : '2.0.0';
    // The 2.0.0 deploy's first span is its minute's first call (7 s in).
    for (const s of [7, 27])
      calls.push({
        service: 'shop',
        version,
        atMs: at(m, s),
        spanName: 'POST /charge',
        attrs: PAY,
        source: 'http',
      });
    const failure =
      m >= 31 && m <= 40
        ? {
            spanName: 'POST /charge',
            attrs: PAY,
            class: 'rate_limit',
            code: '429',
            message: 'Too Many Requests: slow down',
          }
        : m >= 11 && m <= 20
          ? {
              spanName: 'GET /stock',
              attrs: STOCK,
              class: 'transient',
              code: '503',
              message: 'Upstream unavailable (pool exhausted)',
            }
          : m >= 6 && m <= 10
            ? {
                spanName: 'POST /charge',
                attrs: PAY,
                class: 'validation',
                code: '422',
                message: 'card number invalid',
              }
            : null;
    if (failure)
      calls.push({
        service: 'shop',
        version,
        atMs: at(m, 40),
        spanName: failure.spanName,
        attrs: failure.attrs,
        source: 'http',
        failure: { class: failure.class, code: failure.code, message: failure.message },
      });
  }
  return { calls, deployAtMs: at(20, 7) };
}

/** First-hand failures in the last hour, counted from the table above, by the filters a page can set. */
export const STEER_TRUTH = {
  all: 25,
  byQuery: {
    'code=503': 10,
    'version=2.0.0': 15,
    'version=1.0.0': 10,
    'endpoint=POST%20%2Fcharge': 15,
    'q=card': 5,
    'q=UPSTREAM': 10,
    'code=429&version=2.0.0': 0,
  } as Record<string, number>,
  /** Dependencies under q=card: the one edge whose failures mention a card, with their count. */
  cardEdge: { dependency: 'api.pay.example', failures: 5 },
};

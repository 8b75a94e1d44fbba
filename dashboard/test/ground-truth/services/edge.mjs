// Ground-truth service "edge", the entry: refuses a request without an item itself (400, no call),
// else asks orders and/or billing and answers with the first error status one of them returned.
// What each scenario does is annotated in ../scenario.ts; keep the two in step.
import { postJson, StepFailed, serve } from '../../../../scripts/demo/service-runtime.mjs';

const { ORDERS_URL: orders, BILLING_URL: billing } = process.env;
const ORDERS = new Set(['all_ok', 'pg_unique', 'pg_deadlock', 'mariadb_dup', 'redis_wrongtype', 'stock_503']);
const BILLING = new Set(['all_ok', 'coupon_400', 'ddb_throttled', 'charge_ok_false']);

serve({
  'POST /order': async ({ scenario, order, item }) => {
    if (typeof item !== 'string') throw new StepFailed(400, { reason: 'item is required' });
    if (ORDERS.has(scenario)) await postJson(`${orders}/place`, { scenario, order });
    if (BILLING.has(scenario)) await postJson(`${billing}/charge`, { scenario, order });
    return { ok: true, order };
  },
});

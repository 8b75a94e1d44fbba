// Demo service "checkout": the entry of every workflow. Reserves stock (inventory), charges
// (payments), notifies (upstream); one scenario repeats a call the upstream already refused.
import { postJson, StepFailed, serve } from './service-runtime.mjs';

const { UPSTREAM_URL: upstream, INVENTORY_URL: inventory, PAYMENTS_URL: payments } = process.env;

serve({
  'POST /checkout': async ({ scenario, order }) => {
    await postJson(`${inventory}/reserve`, { scenario, order });
    await postJson(`${payments}/charge`, { scenario, order });
    if (scenario === 'coupon_misrouted') {
      const url = `${upstream}/v1/coupons?fault=400&times=2&key=${encodeURIComponent(order)}`;
      let res = await fetch(url, { method: 'POST' });
      // A naive retry of a 400: the identical call cannot succeed (the preload flags it).
      if (!res.ok) res = await fetch(url, { method: 'POST' });
      if (!res.ok) throw new StepFailed(422, { step: 'coupon', status: res.status });
    }
    await postJson(`${upstream}/v1/notify?key=${encodeURIComponent(order)}`, { order, event: 'confirmed' });
    return { ok: true, order };
  },
});

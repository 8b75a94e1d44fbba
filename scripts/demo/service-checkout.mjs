// Demo service "checkout": the entry of every workflow. Reserves stock (inventory), charges
// (payments), notifies (upstream); one scenario repeats a call the upstream already refused, one
// repeats by hand a notify the upstream could not take (503).
import { postJson, StepFailed, serve } from './service-runtime.mjs';

const { UPSTREAM_URL: upstream, INVENTORY_URL: inventory, PAYMENTS_URL: payments } = process.env;

const post = (url, body) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

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
    const fault = scenario === 'notify_unavailable' ? '&fault=503&times=1' : '';
    const notify = `${upstream}/v1/notify?key=${encodeURIComponent(order)}${fault}`;
    let res = await post(notify, { order, event: 'confirmed' });
    await res.arrayBuffer();
    // A hand-written repeat: a 5xx is worth one more try of the identical call.
    if (res.status >= 500) {
      res = await post(notify, { order, event: 'confirmed' });
      await res.arrayBuffer();
    }
    if (!res.ok) throw new StepFailed(502, { step: 'notify', status: res.status });
    return { ok: true, order };
  },
});

import { afterEach, describe, expect, it } from 'vitest';
import { createAlertDelivery } from '../../src/alerts/alert-delivery.js';
import type { AlertNotice, DeliveryOutcome } from '../../src/alerts/alert-types.js';
import { startReceiver } from './receivers.js';

const notice: AlertNotice = {
  key: 'ErrorBudgetBurn|payments|page',
  alertname: 'ErrorBudgetBurn',
  service: 'payments',
  severity: 'page',
  class: 'rate_limit',
  status: 'firing',
  startsAtMs: Date.now(),
  endsAtMs: Date.now() + 180_000,
  window: { long: '1h', short: '5m', factor: 14.4 },
  burnLong: 30,
  burnShort: 30,
  burn: { '5m': 30, '1h': 30 },
  breakdown: {
    classes: [{ class: 'rate_limit', failures: 30, share: 1 }],
    topSource: 'sdk',
    topCode: 'X',
    top: null,
  },
  summary: 'payments: 30× burn',
  dashboardUrl: 'http://dash.test/?service=payments',
};

let close: (() => Promise<void>) | undefined;
afterEach(async () => close?.());

async function deliver(statuses: { status: number; headers?: Record<string, string> }[]) {
  let i = 0;
  const r = await startReceiver(() => statuses[Math.min(i++, statuses.length - 1)] as { status: number });
  close = r.close;
  const outcomes: DeliveryOutcome[] = [];
  const d = createAlertDelivery({
    alertmanagerUrl: null,
    webhookUrl: r.url,
    post: { baseDelayMs: 20, maxDelayMs: 5_000 },
    onOutcome: (o) => {
      outcomes.push(o);
    },
  });
  const started = Date.now();
  d.toWebhook([notice]);
  await d.idle();
  return { outcomes, bodies: r.bodies, ms: Date.now() - started };
}

describe('webhook delivery under the envelope policies', () => {
  it('waits out a 429 Retry-After, then delivers', async () => {
    const { outcomes, bodies, ms } = await deliver([
      { status: 429, headers: { 'retry-after': '1' } },
      { status: 200 },
    ]);
    expect(outcomes).toMatchObject([{ receiver: 'webhook', ok: true, attempts: 2, httpStatus: 200 }]);
    expect((bodies[1]?.at ?? 0) - (bodies[0]?.at ?? 0)).toBeGreaterThanOrEqual(950);
    expect(ms).toBeGreaterThanOrEqual(950);
    expect(bodies[0]?.body).toMatchObject({ service: 'payments', severity: 'page', class: 'rate_limit' });
  });

  it('retries a 500 with backoff', async () => {
    const { outcomes, bodies } = await deliver([{ status: 500 }, { status: 500 }, { status: 200 }]);
    expect(bodies).toHaveLength(3);
    expect(outcomes).toMatchObject([{ ok: true, attempts: 3, httpStatus: 200 }]);
  });

  it('does not retry a 410, and reports the failing receiver', async () => {
    const { outcomes, bodies } = await deliver([{ status: 410 }, { status: 200 }]);
    expect(bodies).toHaveLength(1);
    expect(outcomes).toMatchObject([{ ok: false, attempts: 1, httpStatus: 410 }]);
    expect(outcomes[0]?.error).toMatch(/permanent 410/);
  });
});

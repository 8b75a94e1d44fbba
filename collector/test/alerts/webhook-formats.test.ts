import { afterEach, describe, expect, it } from 'vitest';
import { createAlertDelivery } from '../../src/alerts/alert-delivery.js';
import type { AlertNotice, DeliveryOutcome } from '../../src/alerts/alert-types.js';
import { startReceiver } from './receivers.js';

const STARTS = Date.UTC(2026, 11, 1, 3, 0, 0);
const firing: AlertNotice = {
  key: 'ErrorBudgetBurn|payments|page',
  alertname: 'ErrorBudgetBurn',
  service: 'payments',
  severity: 'page',
  class: 'rate_limit',
  status: 'firing',
  startsAtMs: STARTS,
  endsAtMs: STARTS + 180_000,
  window: { long: '1h', short: '5m', factor: 14.4 },
  burnLong: 14.2,
  burnShort: 30,
  burn: { '5m': 30, '1h': 14.2 },
  breakdown: {
    classes: [
      { class: 'rate_limit', failures: 71, share: 0.71 },
      { class: 'transient', failures: 29, share: 0.29 },
    ],
    topSource: 'sdk',
    topCode: 'ThrottlingException',
    top: { class: 'rate_limit', source: 'sdk', code: 'ThrottlingException', failures: 71 },
  },
  summary: 'payments: 14.2× burn over 1h (30.0× over 5m), 71% rate_limit from sdk ThrottlingException',
  dashboardUrl: 'http://dash.test/?service=payments&from=1&to=2',
};
const resolved: AlertNotice = { ...firing, status: 'resolved', endsAtMs: STARTS + 3_600_000 };

let close: (() => Promise<void>) | undefined;
afterEach(async () => close?.());

async function deliver(format: 'slack' | 'pagerduty', notices: AlertNotice[], status = 200) {
  const r = await startReceiver(() => ({ status }));
  close = r.close;
  const outcomes: DeliveryOutcome[] = [];
  const d = createAlertDelivery({
    alertmanagerUrl: null,
    webhookUrl: r.url,
    webhookFormat: format,
    pagerdutyRoutingKey: 'R0UT1NGKEY0000000000000000000000',
    post: { baseDelayMs: 20 },
    onOutcome: (o) => {
      outcomes.push(o);
    },
  });
  d.toWebhook(notices);
  await d.idle();
  return { bodies: r.bodies.map((b) => b.body), outcomes };
}

describe('webhook payload formats', () => {
  it('slack: an incoming-webhook message with text and Block Kit blocks naming the class', async () => {
    const { bodies, outcomes } = await deliver('slack', [firing, resolved]);
    expect(outcomes.map((o) => o.ok)).toEqual([true, true]);
    expect(bodies[0]).toEqual({
      text: ':rotating_light: *PAGE* ErrorBudgetBurn — payments\npayments: 14.2× burn over 1h (30.0× over 5m), 71% rate_limit from sdk ThrottlingException',
      blocks: [
        {
          type: 'section',
          text: {
            type: 'mrkdwn',
            text: ':rotating_light: *PAGE* ErrorBudgetBurn — payments\npayments: 14.2× burn over 1h (30.0× over 5m), 71% rate_limit from sdk ThrottlingException',
          },
        },
        {
          type: 'context',
          elements: [
            {
              type: 'mrkdwn',
              text: '71% rate_limit, 29% transient; top: rate_limit from sdk ThrottlingException (71) · <http://dash.test/?service=payments&from=1&to=2|Open in Faultline>',
            },
          ],
        },
      ],
    });
    expect((bodies[1] as { text: string }).text).toMatch(
      /^:white_check_mark: \*RESOLVED\* ErrorBudgetBurn — payments/,
    );
  });

  it('slack: escapes &, < and > in text it did not write', async () => {
    const { bodies } = await deliver('slack', [{ ...firing, service: 'a<b>&c', summary: 'x <!channel>' }]);
    expect((bodies[0] as { text: string }).text).toBe(
      ':rotating_light: *PAGE* ErrorBudgetBurn — a&lt;b&gt;&amp;c\nx &lt;!channel&gt;',
    );
  });

  it('pagerduty: an Events v2 trigger, then a resolve with the same dedup_key', async () => {
    const { bodies, outcomes } = await deliver('pagerduty', [firing, resolved], 202);
    expect(outcomes.map((o) => [o.ok, o.httpStatus])).toEqual([
      [true, 202],
      [true, 202],
    ]);
    expect(bodies[0]).toEqual({
      routing_key: 'R0UT1NGKEY0000000000000000000000',
      event_action: 'trigger',
      dedup_key: 'faultline:ErrorBudgetBurn|payments|page',
      payload: {
        summary: firing.summary,
        source: 'payments',
        severity: 'critical',
        timestamp: '2026-12-01T03:00:00.000Z',
        component: 'sdk',
        group: 'payments',
        class: 'rate_limit',
        custom_details: {
          alertname: 'ErrorBudgetBurn',
          severity: 'page',
          labels: {},
          window: { long: '1h', short: '5m', factor: 14.4 },
          burn_rates: { '5m': 30, '1h': 14.2 },
          measure: null,
          breakdown: firing.breakdown,
        },
      },
      links: [{ href: firing.dashboardUrl, text: 'Faultline: the service at the alert time' }],
      client: 'Faultline',
      client_url: firing.dashboardUrl,
    });
    expect(bodies[1]).toEqual({
      routing_key: 'R0UT1NGKEY0000000000000000000000',
      event_action: 'resolve',
      dedup_key: 'faultline:ErrorBudgetBurn|payments|page',
    });
  });

  it('pagerduty: a ticket is a warning, a long key is hashed under 255 characters, a 400 is not retried', async () => {
    const key = `NewFailureCode|checkout|ticket|class=permanent,source=http,code=${'x'.repeat(300)}`;
    const { bodies, outcomes } = await deliver('pagerduty', [{ ...firing, key, severity: 'ticket' }], 400);
    const b = bodies[0] as { dedup_key: string; payload: { severity: string } };
    expect(b.payload.severity).toBe('warning');
    expect(b.dedup_key).toMatch(/^faultline:[0-9a-f]{64}$/);
    expect(bodies).toHaveLength(1);
    expect(outcomes).toMatchObject([{ ok: false, attempts: 1, httpStatus: 400 }]);
  });
});

import type { WebhookFormat } from './alert-config.js';
import type { AlertNotice, DeliveryOutcome } from './alert-types.js';
import { alertmanagerPayload } from './alertmanager-payload.js';
import { type PostOptions, postJson } from './post-json.js';
import { formatWebhook } from './webhook-formats.js';

export { webhookPayload } from './webhook-formats.js';

export interface AlertDeliveryOptions {
  alertmanagerUrl: string | null;
  webhookUrl: string | null;
  /** The webhook's payload shape (default generic). */
  webhookFormat?: WebhookFormat;
  /** PagerDuty Events v2 routing key (format pagerduty). */
  pagerdutyRoutingKey?: string | null;
  post?: PostOptions;
  onOutcome?: (o: DeliveryOutcome) => void | Promise<void>;
  now?: () => number;
}

export interface AlertDelivery {
  /** Queues notices for Alertmanager (every evaluation, while firing and on resolve). Never waits. */
  toAlertmanager(notices: readonly AlertNotice[]): void;
  /** Queues transitions (fired, resolved) for the webhook. Never waits. */
  toWebhook(notices: readonly AlertNotice[]): void;
  /** Resolves once everything queued so far was delivered or given up on. */
  idle(): Promise<void>;
}

/**
 * One queue per receiver, drained in the background: evaluation (and ingest beside it) never waits
 * for a receiver, and a receiver waiting out a 429 delays only its own later notices.
 */
export function createAlertDelivery(o: AlertDeliveryOptions): AlertDelivery {
  const now = o.now ?? Date.now;
  const tails = new Map<string, Promise<void>>();
  function enqueue(receiver: string, notices: readonly AlertNotice[], url: string, body: unknown): void {
    const prev = tails.get(receiver) ?? Promise.resolve();
    const next = prev.then(async () => {
      const r = await postJson(url, body, o.post);
      for (const n of notices) {
        const outcome: DeliveryOutcome = {
          receiver,
          key: n.key,
          status: n.status,
          ok: r.ok,
          attempts: r.attempts,
          httpStatus: r.status,
          error: r.error,
          atMs: now(),
        };
        try {
          await o.onOutcome?.(outcome);
        } catch {
          // Recording an outcome must not stop later deliveries.
        }
      }
    });
    tails.set(receiver, next);
  }
  return {
    toAlertmanager(notices) {
      if (!o.alertmanagerUrl || notices.length === 0) return;
      enqueue('alertmanager', notices, `${o.alertmanagerUrl}/api/v2/alerts`, alertmanagerPayload(notices));
    },
    toWebhook(notices) {
      if (!o.webhookUrl) return;
      for (const n of notices)
        enqueue(
          'webhook',
          [n],
          o.webhookUrl,
          formatWebhook(n, o.webhookFormat ?? 'generic', o.pagerdutyRoutingKey ?? null),
        );
    },
    async idle() {
      // A tail may be replaced while awaited: loop until none changed.
      for (;;) {
        const tails0 = [...tails.values()];
        await Promise.all(tails0);
        if ([...tails.values()].every((t, i) => t === tails0[i])) return;
      }
    },
  };
}

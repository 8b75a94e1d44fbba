import { createHash } from 'node:crypto';
import type { WebhookFormat } from './alert-config.js';
import type { AlertNotice } from './alert-types.js';
import { describeBreakdown } from './alertmanager-payload.js';

/** The generic webhook's JSON: the service, severity, burn per window, class breakdown and link. */
export function webhookPayload(n: AlertNotice): unknown {
  return {
    version: 1,
    status: n.status,
    alertname: n.alertname,
    service: n.service,
    severity: n.severity,
    class: n.class,
    labels: n.labels ?? {},
    summary: n.summary,
    startsAt: new Date(n.startsAtMs).toISOString(),
    endsAt: n.status === 'resolved' ? new Date(n.endsAtMs).toISOString() : null,
    window: n.window,
    burnRates: n.burn,
    measure: n.measure ?? null,
    breakdown: n.breakdown,
    dashboardUrl: n.dashboardUrl,
    stale: n.stale === true,
    reason: n.reason ?? null,
  };
}

/** Slack's mrkdwn control characters (https://api.slack.com/reference/surfaces/formatting#escaping). */
const slackEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * A Slack incoming-webhook message (https://api.slack.com/messaging/webhooks): `text` is the
 * notification and fallback, `blocks` the Block Kit layout (section + context,
 * https://api.slack.com/reference/block-kit/blocks). Slack answers 200 `ok`; 400/403/404/410 are
 * not retried (a removed webhook or archived channel), 429 waits out Retry-After.
 */
export function slackPayload(n: AlertNotice): unknown {
  const icon =
    n.status === 'resolved' ? ':white_check_mark:' : n.severity === 'page' ? ':rotating_light:' : ':warning:';
  const head = `${icon} *${n.status === 'resolved' ? 'RESOLVED' : n.severity.toUpperCase()}* ${slackEscape(n.alertname)} — ${slackEscape(n.service)}`;
  const text = `${head}\n${slackEscape(n.summary)}`;
  return {
    text,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text } },
      {
        type: 'context',
        elements: [
          {
            type: 'mrkdwn',
            text: `${slackEscape(describeBreakdown(n))} · <${n.dashboardUrl}|Open in Faultline>`,
          },
        ],
      },
    ],
  };
}

/** PagerDuty caps dedup_key at 255 characters. */
function dedupKey(key: string): string {
  const k = `faultline:${key}`;
  return k.length <= 255 ? k : `faultline:${createHash('sha256').update(key).digest('hex')}`;
}

/**
 * A PagerDuty Events API v2 event, POSTed to https://events.pagerduty.com/v2/enqueue:
 * trigger (https://developer.pagerduty.com/docs/events-api-v2/trigger-events/) with
 * `payload.summary` (≤ 1024 chars), `source`, `severity` (critical|error|warning|info),
 * `timestamp`, `component`, `group`, `class`, `custom_details`, and `links`; resolve
 * (https://developer.pagerduty.com/docs/events-api-v2/resolve-events/) with the same `dedup_key`,
 * so one Faultline alert is one PagerDuty incident. PagerDuty answers 202; 400 is an invalid
 * event (not retried), 429 is rate limiting (retried with backoff).
 */
export function pagerdutyPayload(n: AlertNotice, routingKey: string): unknown {
  const dedup_key = dedupKey(n.key);
  if (n.status === 'resolved') return { routing_key: routingKey, event_action: 'resolve', dedup_key };
  return {
    routing_key: routingKey,
    event_action: 'trigger',
    dedup_key,
    payload: {
      summary: n.summary.slice(0, 1024),
      source: n.service,
      severity: n.severity === 'page' ? 'critical' : 'warning',
      timestamp: new Date(n.startsAtMs).toISOString(),
      component: n.breakdown.top?.source ?? n.labels?.source ?? undefined,
      group: n.service,
      class: n.class,
      custom_details: {
        alertname: n.alertname,
        severity: n.severity,
        labels: n.labels ?? {},
        window: n.window,
        burn_rates: n.burn,
        measure: n.measure ?? null,
        breakdown: n.breakdown,
      },
    },
    links: [{ href: n.dashboardUrl, text: 'Faultline: the service at the alert time' }],
    client: 'Faultline',
    client_url: n.dashboardUrl,
  };
}

/** The webhook body in the configured format. */
export function formatWebhook(n: AlertNotice, format: WebhookFormat, routingKey: string | null): unknown {
  if (format === 'slack') return slackPayload(n);
  if (format === 'pagerduty') return pagerdutyPayload(n, routingKey ?? '');
  return webhookPayload(n);
}

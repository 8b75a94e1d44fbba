import type { AlertNotice } from './alert-types.js';

/**
 * Alertmanager v2 `POST /api/v2/alerts` body for notices. The labels identify the alert, so they
 * hold only what stays fixed while it fires (class is the dominant class when it fired); the
 * current burn and breakdown go in annotations.
 */
export function alertmanagerPayload(notices: readonly AlertNotice[]): unknown[] {
  return notices.map((n) => ({
    labels: { ...n.labels, alertname: n.alertname, service: n.service, severity: n.severity, class: n.class },
    annotations: {
      summary: n.summary,
      description: describeBreakdown(n),
      dashboard: n.dashboardUrl,
      ...(n.reason ? { reason: n.reason } : {}),
    },
    startsAt: new Date(n.startsAtMs).toISOString(),
    endsAt: new Date(n.endsAtMs).toISOString(),
    generatorURL: n.dashboardUrl,
  }));
}

export function describeBreakdown(n: AlertNotice): string {
  const classes = n.breakdown.classes.map((c) => `${Math.round(c.share * 100)}% ${c.class}`).join(', ');
  const top = n.breakdown.top;
  const dep = n.breakdown.topDependency;
  return `${classes || 'no counted failures'}${top ? `; top: ${top.class} from ${top.source} ${top.code} (${top.failures})` : ''}${dep ? `; top dependency: ${dep.name} (${dep.failures})` : ''}`;
}

/**
 * A class rule's alert key: alertname|service|severity|k=v,… — the extra labels (source, class,
 * code) are part of the alert's identity in Alertmanager, so they are kept in the key and a restart
 * can resolve the very alert it sent.
 */
export function classAlertKey(
  alertname: string,
  service: string,
  severity: string,
  labels: Record<string, string>,
): string {
  const extra = Object.entries(labels)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join(',');
  return `${alertname}|${service}|${severity}|${extra}`;
}

/** The extra labels kept in a class rule's key ({} for a burn-rate key). */
export function labelsFromKey(key: string): Record<string, string> {
  const extra = key.split('|')[3];
  if (!extra) return {};
  return Object.fromEntries(
    extra.split(',').map((kv) => {
      const i = kv.indexOf('=');
      return [kv.slice(0, i), decodeURIComponent(kv.slice(i + 1))];
    }),
  );
}

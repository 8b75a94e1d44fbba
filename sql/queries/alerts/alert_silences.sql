-- name: alert_silences
-- description: Every alert silence that ends after {since}, newest first, as its latest revision says (alert_silences is append-only): its matchers (service, class, alertname; '' matches any), start, end, author, reason, the Alertmanager silence mirroring it (its id, its state there, the last mirroring error), and its status at {now}: pending (not started), active, or expired (ended, or expired early by expired_by).
SELECT
  silence_id,
  service,
  class,
  alertname,
  toUnixTimestamp64Milli(starts_at) AS starts_ms,
  toUnixTimestamp64Milli(ends_at) AS ends_ms,
  toUnixTimestamp64Milli(created_at) AS created_ms,
  author,
  reason,
  multiIf(state = 'expired' OR ends_at <= {now:DateTime64(3)}, 'expired',
          starts_at > {now:DateTime64(3)}, 'pending',
          'active') AS status,
  state,
  expired_by,
  alertmanager_id,
  alertmanager_state,
  mirror_error,
  revision
FROM (
  SELECT *
  FROM alert_silences
  ORDER BY silence_id, revision DESC
  LIMIT 1 BY silence_id
)
WHERE ends_at > {since:DateTime64(3)}
ORDER BY created_at DESC, silence_id

// The image's HEALTHCHECK: GET /healthz of the role this container runs (FAULTLINE_ROLE), on the
// port that role listens on. Exit 0 when every role answers 200, 1 otherwise (with the reason).
const env = process.env;
const roles =
  (env.FAULTLINE_ROLE ?? 'all') === 'all' ? ['collector', 'dashboard'] : env.FAULTLINE_ROLE.split(',');
const ports = {
  collector: env.FAULTLINE_OTLP_PORT ?? '4318',
  dashboard: env.FAULTLINE_DASHBOARD_PORT ?? env.PORT ?? '3000',
  // Beside the collector the alerts role reports through the collector's /healthz.
  alerts: roles.includes('collector') ? null : (env.FAULTLINE_ALERTS_PORT ?? '9470'),
};

let failed = 0;
for (const role of roles.map((r) => r.trim())) {
  const port = ports[role];
  if (port === null || port === undefined) continue;
  try {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(4000) });
    if (res.status !== 200) {
      failed++;
      console.error(`${role}: /healthz answered ${res.status}: ${(await res.text()).slice(0, 500)}`);
    }
  } catch (err) {
    failed++;
    console.error(`${role}: /healthz on port ${port} did not answer: ${err.message}`);
  }
}
process.exit(failed ? 1 : 0);

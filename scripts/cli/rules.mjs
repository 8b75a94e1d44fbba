// `faultline rules [--out <file>]`: Prometheus recording and alerting rules from the alert settings.
const HELP = `Usage: faultline rules [--out <file>]

Writes Prometheus recording and alerting rules equivalent to Faultline's burn-rate and class
rules, from the same settings (FAULTLINE_SLO_TARGET, FAULTLINE_ALERT_RULES,
FAULTLINE_BUDGET_CALLER_FAULTS), to stdout or to <file>. They read the faultline_outbound_*
counters of the alerts role's /metrics. Check them with \`promtool check rules <file>\`.
`;

export async function run(args) {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(HELP);
    return 0;
  }
  const { runPrometheusRulesCli } = await import('@faultline/collector');
  return runPrometheusRulesCli(args);
}

import type { AlertConfig } from '@faultline/collector';
import { ParamError } from '../components/param-error';
import { loadAlertConfig } from '../server/alert-data';

/** Where a receiver is, without its path, query or credentials (a webhook URL often holds a secret). */
function origin(url: string | null): string {
  if (!url) return 'not set';
  try {
    return new URL(url).origin;
  } catch {
    return 'set';
  }
}

function describeClassRule(r: AlertConfig['classRules'][number]): string {
  if (r.kind === 'agent_wrong_actions')
    return `an agent's wrong next actions after failed tool calls burning ${r.factor}× the ${Math.round((1 - r.target) * 100)}% allowed over ${r.long} and ${r.short} (at least ${r.minEvents} judged in each)`;
  return r.kind === 'class_rate'
    ? `${r.class} failures from ${r.source} above ${r.perMinute}/min over ${r.windowMinutes}m`
    : `a failure code first seen in the last ${r.windowMinutes}m, absent the ${r.baselineDays} d before`;
}

/**
 * The rules this deployment evaluates, read from the same settings the evaluator reads
 * (FAULTLINE_SLO_TARGET, FAULTLINE_ALERT_RULES, FAULTLINE_ALERT_INTERVAL_S, the receivers), so
 * the page says what will page, not what the defaults would.
 */
export async function DBAlertRules() {
  const loaded = await loadAlertConfig();
  if (!loaded.config)
    return (
      <section className="panel" aria-labelledby="rules-title">
        <h2 id="rules-title">Rules</h2>
        <ParamError message={`The alert settings are invalid, so no alert is evaluated: ${loaded.error}`} />
      </section>
    );
  const c = loaded.config;
  const overrides = Object.entries(c.sloByService).sort(([a], [b]) => a.localeCompare(b));
  const classRules = [...c.classRules, ...c.agentRules];
  return (
    <section className="panel" aria-labelledby="rules-title">
      <h2 id="rules-title">Rules</h2>
      <p className="muted" data-testid="alert-settings">
        Evaluated every {c.intervalS} s. Per service, against its SLO ({c.slo}%
        {overrides.length > 0 && `; ${overrides.map(([s, v]) => `${s} ${v}%`).join(', ')}`}): the budget
        panel&apos;s logical outbound calls (CLIENT and PRODUCER spans, each attempt) and their first-hand
        failures (echoes of a deeper failure count where it happened; caller faults{' '}
        {c.callerFaults === 'include' ? 'included' : 'apart'}). A burn rule fires while the burn rate over
        both its windows is at least its factor. Receivers: Alertmanager {origin(c.alertmanagerUrl)}, webhook{' '}
        {origin(c.webhookUrl)}
        {c.webhookUrl ? ` (${c.webhookFormat})` : ''}.
      </p>
      <table data-testid="alert-rules">
        <thead>
          <tr>
            <th>alert</th>
            <th>severity</th>
            <th className="num">burn rate at least</th>
            <th className="num">over</th>
            <th className="num">and over</th>
          </tr>
        </thead>
        <tbody>
          {c.burnRules.map((r) => (
            <tr key={`${r.alertname}-${r.severity}-${r.long}-${r.short}`}>
              <td>{r.alertname}</td>
              <td>{r.severity}</td>
              <td className="num">{r.factor}×</td>
              <td className="num">{r.long}</td>
              <td className="num">{r.short}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {classRules.length > 0 && (
        <table data-testid="alert-class-rules">
          <thead>
            <tr>
              <th>alert</th>
              <th>severity</th>
              <th>fires on</th>
              <th>service</th>
            </tr>
          </thead>
          <tbody>
            {classRules.map((r) => (
              <tr key={`${r.kind}-${r.alertname}-${r.severity}-${describeClassRule(r)}-${r.service ?? ''}`}>
                <td>{r.alertname}</td>
                <td>{r.severity}</td>
                <td>{describeClassRule(r)}</td>
                <td>{r.service ?? 'every service'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

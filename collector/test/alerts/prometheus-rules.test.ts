import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { resolveAlertConfig } from '../../src/alerts/alert-config.js';
import { runPrometheusRulesCli } from '../../src/alerts/prometheus-rules.js';

// Debian's `prometheus` package (scripts/pretest.mjs installs it): a missing promtool fails the run.
const PROMTOOL = '/usr/bin/promtool';
const dir = mkdtempSync(join(tmpdir(), 'faultline-prom-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = () => {
  const rules = join(dir, 'alert-rules.yaml');
  writeFileSync(
    rules,
    'services:\n  payments: { slo: 99.9 }\nrules:\n  - { kind: class_rate, class: rate_limit, source: sdk, per_minute: 50 }\n  - { kind: new_code }\n',
  );
  return { FAULTLINE_ALERT_RULES: rules, FAULTLINE_DASHBOARD_PUBLIC_URL: 'http://dash.test' };
};

function generate(): string {
  const out = join(dir, 'faultline.rules.yml');
  expect(runPrometheusRulesCli(['--out', out], env())).toBe(0);
  return out;
}

/** A counter rising perMin a minute for `minutes` (default: the whole test), then flat. */
const rising = (perMin: number, minutes = 120) =>
  minutes >= 120 ? `0+${perMin}x120` : `0+${perMin}x${minutes} ${perMin * minutes}+0x${120 - minutes}`;
const calls = (service: string, perMin: number, minutes?: number) => ({
  series: `faultline_outbound_calls_total{service="${service}"}`,
  values: rising(perMin, minutes),
});
const failures = (
  service: string,
  cls: string,
  source: string,
  perMin: number,
  firstHand = true,
  minutes?: number,
) => ({
  series: `faultline_outbound_failures_total{service="${service}",class="${cls}",source="${source}",first_hand="${firstHand}"}`,
  values: rising(perMin, minutes),
});
const dash = (service: string) => `http://dash.test/?service=${service}`;

describe('npm run rules', () => {
  it('writes rules that promtool check rules accepts', () => {
    const file = generate();
    const r = spawnSync(PROMTOOL, ['check', 'rules', file], { encoding: 'utf8' });
    expect(r.stdout + r.stderr).toContain('SUCCESS: 28 rules found');
    expect(r.status).toBe(0);
    // 5 windows × (calls, failures, failures by class, error ratio, burn) + page, ticket, class_rate.
    // Per-service SLO: payments' burn divides by 0.001, the others by the default 99.5's 0.005.
    const text = readFileSync(file, 'utf8');
    expect(text).toContain(
      'faultline:error_ratio:rate1h{service="payments"} / 0.001\n          or\n          faultline:error_ratio:rate1h{service!~"payments"} / 0.005',
    );
    // Each rule's windows hold at least 250 calls (FAULTLINE_ALERT_MIN_EVENTS), and the service made
    // a call in the last 10 minutes (FAULTLINE_ALERT_STALE_AFTER_S).
    expect(text).toContain(
      '(faultline:error_budget_burn:rate1h >= 14.4 and faultline:error_budget_burn:rate5m >= 14.4 and faultline:outbound_calls:rate1h * 3600 >= 250 and faultline:outbound_calls:rate5m * 300 >= 250)',
    );
    expect(text).toContain(
      '(faultline:error_budget_burn:rate3d >= 1 and faultline:error_budget_burn:rate6h >= 1 and faultline:outbound_calls:rate3d * 259200 >= 250 and faultline:outbound_calls:rate6h * 21600 >= 250)',
    );
    expect(
      text.match(
        / unless on \(service\) \(sum by \(service\) \(increase\(faultline_outbound_calls_total\[10m\]\)\) == 0\)\)/g,
      ),
    ).toHaveLength(2);
  });

  it('writes a rule’s own min_events, and the configured minimum and staleness delay', () => {
    const rules = join(dir, 'min-events.yaml');
    writeFileSync(
      rules,
      'rules:\n  - { kind: burn_rate, severity: page, long: 1h, short: 5m, factor: 14.4, min_events: 1000 }\n  - { kind: burn_rate, severity: ticket, long: 3d, short: 6h, factor: 1 }\n',
    );
    const out = join(dir, 'min-events.rules.yml');
    const env = {
      FAULTLINE_ALERT_RULES: rules,
      FAULTLINE_ALERT_MIN_EVENTS: '40',
      FAULTLINE_ALERT_STALE_AFTER_S: '900',
    };
    expect(runPrometheusRulesCli(['--out', out], env)).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain(
      'faultline:outbound_calls:rate1h * 3600 >= 1000 and faultline:outbound_calls:rate5m * 300 >= 1000)',
    );
    expect(text).toContain(
      'faultline:outbound_calls:rate3d * 259200 >= 40 and faultline:outbound_calls:rate6h * 21600 >= 40)',
    );
    expect(text).toContain('increase(faultline_outbound_calls_total[15m])');
    expect(spawnSync(PROMTOOL, ['check', 'rules', out], { encoding: 'utf8' }).status).toBe(0);
  });

  it('fires what Faultline fires on the same traffic (promtool test rules)', () => {
    const file = generate();
    /*
     * payments: 1000 calls/min, 100 first-hand rate_limit sdk failures/min → 0.1 / 0.001 = 100×: page
     *   and ticket, class rate_limit; 100/min rate_limit from sdk > 50: FailureClassRate.
     * orders: 1000 calls/min, 10 transient http + 40 rate_limit sdk echoes (not first-hand) → 1% /
     *   0.005 = 2×: a ticket only, class transient; 40+0 rate_limit sdk/min is not above 50.
     * search: 1000 calls/min, 1 transient + 50 validation (caller faults, not counted) → 0.2×:
     *   nothing.
     * quiet: 4 calls/min, 1 transient failure/min → 25% / 0.005 = 50× in every window, but at
     *   30 min no window holds the 250 calls FAULTLINE_ALERT_MIN_EVENTS asks (20 in 5 m, 120 in
     *   30 m and longer): nothing.
     * stopped: 100 calls/min with 10 transient failures/min for 20 minutes, then none: at 30 min
     *   its 30 m and 6 h windows still hold 2000 calls at 10% (20×), enough for the 6× page and the
     *   ticket, but no call in the last 10 minutes (FAULTLINE_ALERT_STALE_AFTER_S): nothing.
     */
    const test = {
      rule_files: [file],
      evaluation_interval: '1m',
      tests: [
        {
          interval: '1m',
          input_series: [
            calls('payments', 1000),
            failures('payments', 'rate_limit', 'sdk', 100),
            calls('orders', 1000),
            failures('orders', 'transient', 'http', 10),
            failures('orders', 'rate_limit', 'sdk', 40, false),
            calls('search', 1000),
            failures('search', 'transient', 'db', 1),
            failures('search', 'validation', 'http', 50),
            calls('quiet', 4),
            failures('quiet', 'transient', 'http', 1),
            calls('stopped', 100, 20),
            failures('stopped', 'transient', 'http', 10, true, 20),
          ],
          alert_rule_test: [
            {
              eval_time: '30m',
              alertname: 'ErrorBudgetBurn',
              exp_alerts: [
                {
                  exp_labels: { severity: 'page', service: 'payments', class: 'rate_limit' },
                  exp_annotations: {
                    summary:
                      'payments: 100.0× error-budget burn (14.4× over 1h and 5m, or 6× over 6h and 30m), mostly rate_limit',
                    dashboard: dash('payments'),
                  },
                },
                {
                  exp_labels: { severity: 'ticket', service: 'orders', class: 'transient' },
                  exp_annotations: {
                    summary: 'orders: 2.0× error-budget burn (1× over 3d and 6h), mostly transient',
                    dashboard: dash('orders'),
                  },
                },
                {
                  exp_labels: { severity: 'ticket', service: 'payments', class: 'rate_limit' },
                  exp_annotations: {
                    summary: 'payments: 100.0× error-budget burn (1× over 3d and 6h), mostly rate_limit',
                    dashboard: dash('payments'),
                  },
                },
              ],
            },
            {
              eval_time: '30m',
              alertname: 'FailureClassRate',
              exp_alerts: [
                {
                  exp_labels: { severity: 'page', service: 'payments', class: 'rate_limit', source: 'sdk' },
                  exp_annotations: {
                    summary: 'payments: 100.0 rate_limit failures/min from sdk over 5m (above 50/min)',
                    dashboard: dash('payments'),
                  },
                },
              ],
            },
          ],
          promql_expr_test: [
            {
              // ×1000 then rounded: 0.1 / 0.001 is 99.99999999999999 in floating point.
              expr: 'round(faultline:error_budget_burn:rate30m * 1000)',
              eval_time: '30m',
              exp_samples: [
                { labels: '{service="orders"}', value: 2000 },
                { labels: '{service="payments"}', value: 100000 },
                { labels: '{service="quiet"}', value: 50000 },
                { labels: '{service="search"}', value: 200 },
                { labels: '{service="stopped"}', value: 20000 },
              ],
            },
            {
              // The calls each window held: what the minimum of events is compared with.
              expr: 'round(faultline:outbound_calls:rate30m * 1800)',
              eval_time: '30m',
              exp_samples: [
                { labels: '{service="orders"}', value: 30000 },
                { labels: '{service="payments"}', value: 30000 },
                { labels: '{service="quiet"}', value: 120 },
                { labels: '{service="search"}', value: 30000 },
                { labels: '{service="stopped"}', value: 2000 },
              ],
            },
          ],
        },
      ],
    };
    const testFile = join(dir, 'faultline.rules.test.yml');
    writeFileSync(testFile, stringify(test));
    let output = '';
    try {
      output = execFileSync(PROMTOOL, ['test', 'rules', testFile], { encoding: 'utf8', stdio: 'pipe' });
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string };
      throw new Error(`promtool test rules failed:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
    }
    expect(output).toContain('SUCCESS');
  });

  it('names a bad setting instead of writing rules', () => {
    expect(runPrometheusRulesCli([], { FAULTLINE_SLO_TARGET: '120' })).toBe(1);
    expect(runPrometheusRulesCli(['--bogus'], {})).toBe(2);
    expect(resolveAlertConfig(env()).classRules.map((r) => r.kind)).toEqual(['class_rate', 'new_code']);
  });
});

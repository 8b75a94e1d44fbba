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

const calls = (service: string, perMin: number) => ({
  series: `faultline_outbound_calls_total{service="${service}"}`,
  values: `0+${perMin}x120`,
});
const failures = (service: string, cls: string, source: string, perMin: number, firstHand = true) => ({
  series: `faultline_outbound_failures_total{service="${service}",class="${cls}",source="${source}",first_hand="${firstHand}"}`,
  values: `0+${perMin}x120`,
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
    expect(readFileSync(file, 'utf8')).toContain(
      'faultline:error_ratio:rate1h{service="payments"} / 0.001\n          or\n          faultline:error_ratio:rate1h{service!~"payments"} / 0.005',
    );
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
              expr: 'round(faultline:error_budget_burn:rate5m * 1000)',
              eval_time: '30m',
              exp_samples: [
                { labels: '{service="orders"}', value: 2000 },
                { labels: '{service="payments"}', value: 100000 },
                { labels: '{service="search"}', value: 200 },
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

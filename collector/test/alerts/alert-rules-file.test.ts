import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveAlertConfig } from '../../src/alerts/alert-config.js';
import { parseAlertRules } from '../../src/alerts/alert-rules-file.js';
import { BURN_RULES } from '../../src/alerts/burn-rules.js';

const dir = mkdtempSync(join(tmpdir(), 'faultline-rules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

const YAML = `# payments runs tighter than the default SLO
services:
  payments:
    slo: 99.9
rules:
  - kind: class_rate
    class: rate_limit
    source: sdk
    per_minute: 50
  - kind: new_code
    service: checkout
    baseline_days: 3
`;

describe('FAULTLINE_ALERT_RULES', () => {
  it('reads YAML: SLO overrides, class rules with their defaults, the workbook burn rules kept', () => {
    const c = resolveAlertConfig({ FAULTLINE_ALERT_RULES: file('rules.yaml', YAML) });
    expect(c.sloByService).toEqual({ payments: 99.9 });
    expect(c.burnRules).toBe(BURN_RULES);
    expect(c.classRules).toEqual([
      {
        kind: 'class_rate',
        alertname: 'FailureClassRate',
        severity: 'page',
        class: 'rate_limit',
        source: 'sdk',
        perMinute: 50,
        windowMinutes: 5,
        service: null,
      },
      {
        kind: 'new_code',
        alertname: 'NewFailureCode',
        severity: 'ticket',
        baselineDays: 3,
        windowMinutes: 60,
        service: 'checkout',
      },
    ]);
  });

  it('reads the same rules as JSON', () => {
    const json = JSON.stringify({
      services: { payments: { slo: 99.9 } },
      rules: [
        { kind: 'class_rate', class: 'rate_limit', source: 'sdk', per_minute: 50 },
        { kind: 'new_code', service: 'checkout', baseline_days: 3 },
      ],
    });
    const fromJson = resolveAlertConfig({ FAULTLINE_ALERT_RULES: file('rules.json', json) });
    const fromYaml = resolveAlertConfig({ FAULTLINE_ALERT_RULES: file('rules2.yaml', YAML) });
    expect(fromJson.classRules).toEqual(fromYaml.classRules);
    expect(fromJson.sloByService).toEqual(fromYaml.sloByService);
  });

  it('keeps the burn-rate rules as the default without a file, and takes the file’s own burn_rate rules', () => {
    const none = resolveAlertConfig({});
    expect(none.burnRules).toBe(BURN_RULES);
    expect(none.classRules).toEqual([]);
    expect(parseAlertRules('', 'empty.yaml').burnRules).toBe(BURN_RULES);
    const own = parseAlertRules(
      'rules:\n  - { kind: burn_rate, severity: page, long: 1h, short: 5m, factor: 10 }\n',
      'own.yaml',
    );
    expect(own.burnRules).toEqual([
      { alertname: 'ErrorBudgetBurn', severity: 'page', long: '1h', short: '5m', factor: 10 },
    ]);
  });

  it.each([
    [
      'a value of the wrong type',
      'rules:\n  - kind: class_rate\n    class: rate_limit\n    source: sdk\n    per_minute: fifty\n',
      /rules\.yaml line 5: rules\[0\]\.per_minute is "fifty": give the failures per minute to alert above, e\.g\. per_minute: 50\./,
    ],
    [
      'an unknown class',
      'rules:\n  - kind: class_rate\n    class: throttled\n    source: sdk\n    per_minute: 5\n',
      /line 3: rules\[0\]\.class is "throttled": give one of validation, authentication, rate_limit, transient, permanent\./,
    ],
    [
      'a missing key (the rule’s line)',
      'services:\n  payments: { slo: 99.9 }\nrules:\n  - kind: class_rate\n    class: rate_limit\n    per_minute: 5\n',
      /line 4: rules\[0\]\.source is missing: give the failing source, e\.g\. sdk, http, db or rpc\./,
    ],
    [
      'an unknown kind',
      'rules:\n  - kind: latency\n',
      /line 2: rules\[0\]\.kind is "latency": give burn_rate, class_rate, new_code or agent_wrong_actions\./,
    ],
    [
      'a misspelt key',
      'rules:\n  - kind: new_code\n    baseline_day: 3\n',
      /line 3: rules\[0\]\.baseline_day is not a key of a new_code rule: its keys are kind, alertname, severity, baseline_days, window_minutes, service\./,
    ],
    ['a bad SLO', 'services:\n  payments:\n    slo: 120\n', /line 3: services\.payments\.slo is 120: /],
    [
      'YAML syntax',
      'rules:\n  - kind: class_rate\n   class: [\n',
      /line \d: not valid YAML or JSON \(.+\): fix the syntax/,
    ],
    [
      'JSON syntax',
      '{\n  "rules": [\n    { "kind": "new_code", }\n  ,\n}',
      /line \d: not valid YAML or JSON/,
    ],
    ['a duplicate key', 'services:\n  a: { slo: 99 }\n  a: { slo: 98 }\n', /line 3: not valid YAML or JSON/],
    ['a list at the top', '- kind: new_code\n', /line 1: the document is not a mapping/],
  ])('names the line and the fix for %s', (_what, text, message) => {
    const path = file('rules.yaml', text);
    expect(() => resolveAlertConfig({ FAULTLINE_ALERT_RULES: path })).toThrow(message);
    expect(() => resolveAlertConfig({ FAULTLINE_ALERT_RULES: path })).toThrow(/^FAULTLINE_ALERT_RULES=/);
  });

  it('names a file it cannot read', () => {
    expect(() => resolveAlertConfig({ FAULTLINE_ALERT_RULES: join(dir, 'nope.yaml') })).toThrow(
      /FAULTLINE_ALERT_RULES=.*nope\.yaml cannot be read .*: give the path of a YAML or JSON rules file/,
    );
  });
});

describe('FAULTLINE_ALERT_WEBHOOK_FORMAT', () => {
  it('is generic by default and accepts slack and pagerduty', () => {
    expect(resolveAlertConfig({}).webhookFormat).toBe('generic');
    expect(resolveAlertConfig({ FAULTLINE_ALERT_WEBHOOK_FORMAT: 'slack' }).webhookFormat).toBe('slack');
    const pd = resolveAlertConfig({
      FAULTLINE_ALERT_WEBHOOK_FORMAT: 'pagerduty',
      FAULTLINE_PAGERDUTY_ROUTING_KEY: 'R0UT1NGKEY',
    });
    expect(pd.webhookFormat).toBe('pagerduty');
    expect(pd.pagerdutyRoutingKey).toBe('R0UT1NGKEY');
  });

  it('rejects another format, and pagerduty without a routing key, saying the fix', () => {
    expect(() => resolveAlertConfig({ FAULTLINE_ALERT_WEBHOOK_FORMAT: 'teams' })).toThrow(
      'FAULTLINE_ALERT_WEBHOOK_FORMAT=teams is not a payload format: give generic (default), slack (a Slack incoming webhook) or pagerduty (PagerDuty Events v2).',
    );
    expect(() => resolveAlertConfig({ FAULTLINE_ALERT_WEBHOOK_FORMAT: 'pagerduty' })).toThrow(
      /needs FAULTLINE_PAGERDUTY_ROUTING_KEY/,
    );
  });
});

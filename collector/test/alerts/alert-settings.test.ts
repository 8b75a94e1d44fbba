import { describe, expect, it } from 'vitest';
import { resolveAlertConfig } from '../../src/alerts/alert-config.js';
import { parseAlertRules } from '../../src/alerts/alert-rules-file.js';
import { BURN_RULES } from '../../src/alerts/burn-rules.js';
import { judgeRule } from '../../src/alerts/judge-windows.js';
import { isStale } from '../../src/alerts/staleness.js';
import type { BudgetInput, BurnWindow } from '../../src/budget/index.js';
import { computeBudget } from '../../src/budget/index.js';

describe('FAULTLINE_ALERT_MIN_EVENTS and FAULTLINE_ALERT_STALE_AFTER_S', () => {
  it('default to 250 events and 600 s, and take whole numbers in range', () => {
    expect(resolveAlertConfig({})).toMatchObject({ minEvents: 250, staleAfterS: 600 });
    expect(
      resolveAlertConfig({ FAULTLINE_ALERT_MIN_EVENTS: ' 40 ', FAULTLINE_ALERT_STALE_AFTER_S: '1800' }),
    ).toMatchObject({ minEvents: 40, staleAfterS: 1800 });
    expect(resolveAlertConfig({ FAULTLINE_ALERT_MIN_EVENTS: '1' }).minEvents).toBe(1);
  });

  it('refuses anything else, naming the variable, the range and the default', () => {
    for (const bad of ['0', '-5', '2.5', 'many', '1000000001'])
      expect(() => resolveAlertConfig({ FAULTLINE_ALERT_MIN_EVENTS: bad }), bad).toThrow(
        `FAULTLINE_ALERT_MIN_EVENTS=${bad} is not an event count: give a whole number of calls (or requests) from 1 to 1000000000 that a burn window must hold before it is judged (default 250; 1 judges any window with traffic).`,
      );
    for (const bad of ['60', '119', '10m', '259201', '-600'])
      expect(() => resolveAlertConfig({ FAULTLINE_ALERT_STALE_AFTER_S: bad }), bad).toThrow(
        `FAULTLINE_ALERT_STALE_AFTER_S=${bad} is not a staleness delay: give a whole number of seconds from 120 (data is counted per minute) to 259200 (the longest burn window, 3 d) after which a service that sent nothing has its alerts marked stale (default 600).`,
      );
  });
});

describe('min_events on a burn_rate rule of FAULTLINE_ALERT_RULES', () => {
  it('sets that rule’s minimum; the others keep the configured one', () => {
    const rules = parseAlertRules(
      'rules:\n  - { kind: burn_rate, severity: page, long: 1h, short: 5m, factor: 14.4, min_events: 1000 }\n  - { kind: burn_rate, severity: ticket, long: 3d, short: 6h, factor: 1 }\n',
      'rules.yaml',
    );
    expect(rules.burnRules).toEqual([
      {
        alertname: 'ErrorBudgetBurn',
        severity: 'page',
        long: '1h',
        short: '5m',
        factor: 14.4,
        minEvents: 1000,
      },
      { alertname: 'ErrorBudgetBurn', severity: 'ticket', long: '3d', short: '6h', factor: 1 },
    ]);
  });

  it('refuses a minimum that is not a whole number of at least 1, with the line', () => {
    for (const bad of ['0', '2.5', 'lots'])
      expect(
        () =>
          parseAlertRules(
            `rules:\n  - kind: burn_rate\n    long: 1h\n    short: 5m\n    factor: 14.4\n    min_events: ${bad}\n`,
            'rules.yaml',
          ),
        bad,
      ).toThrow(
        /^FAULTLINE_ALERT_RULES=rules\.yaml line 6: rules\[0\]\.min_events is .*: give a whole number of events from 1 to 1000000000 that each window must hold before the rule fires, or leave it out for FAULTLINE_ALERT_MIN_EVENTS\.$/,
      );
  });
});

/** A service's counts: `events` and `failures` (transient) in every window. */
function input(events: number, failures: number): BudgetInput {
  const windows = (n: number) =>
    Object.fromEntries(['5m', '30m', '1h', '6h', '3d'].map((w) => [w, n])) as Record<BurnWindow, number>;
  return {
    service: 's',
    total: { range: events, windows: windows(events), period: events },
    firstSeenS: 0,
    failuresByClass: { transient: { range: failures, windows: windows(failures), period: failures } },
  };
}
const verdicts = (events: number, failures: number, minEvents: number) => {
  const i = input(events, failures);
  const budget = computeBudget(i, { slo: 99.5, periodS: 259_200, toS: 259_200, callerFaults: 'exclude' });
  return BURN_RULES.map((r) => judgeRule(i, budget, r, minEvents));
};

describe('judging a rule', () => {
  it('needs the minimum in both windows, then the factor in both', () => {
    // 1 of 50 (4×): too few events under 250; with a minimum of 50, the ticket (1×) holds.
    expect(verdicts(50, 1, 250)).toEqual([
      'insufficient_traffic',
      'insufficient_traffic',
      'insufficient_traffic',
    ]);
    expect(verdicts(50, 1, 50)).toEqual(['ok', 'ok', 'burning']);
    // 1 of 250: 0.4%, a burn of 0.8: judged, and under every factor.
    expect(verdicts(250, 1, 250)).toEqual(['ok', 'ok', 'ok']);
    // 19 of 250: 7.6%, 15.2×: every rule holds.
    expect(verdicts(250, 19, 250)).toEqual(['burning', 'burning', 'burning']);
  });

  it('calls a service stale once its last data is the delay old, never one not seen', () => {
    expect(isStale(1000, 1599, 600)).toBe(false);
    expect(isStale(1000, 1600, 600)).toBe(true);
    expect(isStale(null, 1e9, 600)).toBe(false);
  });
});

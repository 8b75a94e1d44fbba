import { describe, expect, it } from 'vitest';
import { predictedEndToEnd, stepReliability } from '../src/lib/compounding';
import { computeBudgets, pickHeadline } from '../src/lib/error-budget';

describe('computeBudgets', () => {
  const rows = [
    { service: 'payments', class: '', calls: 9_000, failures: 0 },
    { service: 'payments', class: 'rate_limit', calls: 600, failures: 600 },
    { service: 'payments', class: 'validation', calls: 400, failures: 400 },
    { service: 'search', class: '', calls: 1_000, failures: 2 },
  ];

  it('splits the budget each service spent by class, with the burn rate', () => {
    const [payments, search] = computeBudgets(rows, 99);
    expect(payments!.service).toBe('payments');
    expect(payments!.calls).toBe(10_000);
    expect(payments!.failures).toBe(1_000);
    expect(payments!.allowedFailures).toBeCloseTo(100);
    expect(payments!.consumed).toBeCloseTo(10);
    expect(payments!.consumedByClass.rate_limit).toBeCloseTo(6);
    expect(payments!.consumedByClass.validation).toBeCloseTo(4);
    expect(payments!.burnRate).toBeCloseTo(10);
    // Error spans nobody classified still spend budget, under their own label.
    expect(search!.failuresByClass).toEqual({ unclassified: 2 });
    expect(search!.consumed).toBeCloseTo(0.2);
  });

  it('names the class and source that spent the most in the headline', () => {
    const budgets = computeBudgets(rows, 99);
    const h = pickHeadline(
      [
        { class: 'validation', source: 'db', failures: 400, retryableFailures: 0 },
        { class: 'rate_limit', source: 'http', failures: 600, retryableFailures: 600 },
      ],
      budgets,
    );
    expect(h).toMatchObject({ class: 'rate_limit', source: 'http', failures: 600, totalFailures: 1_000 });
    expect(h!.budgetShare).toBeCloseTo(600 / 110);
    expect(h!.failureShare).toBeCloseTo(0.6);
    expect(pickHeadline([], budgets)).toBeNull();
  });
});

describe('compounding', () => {
  it('reproduces 95% per step over 20 steps ≈ 35.8%', () => {
    expect(predictedEndToEnd(stepReliability(100, 5), 20)).toBeCloseTo(0.358, 3);
  });
});

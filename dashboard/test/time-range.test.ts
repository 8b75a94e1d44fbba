import { describe, expect, it } from 'vitest';
import { parseDashboardParams } from '../src/lib/dashboard-params';
import { bucketFor, parseTimeRange } from '../src/lib/time-range';

const NOW = Date.parse('2026-01-31T10:00:30Z');

describe('parseTimeRange', () => {
  it('turns a preset into whole minutes ending after now', () => {
    const r = parseTimeRange({ range: '1h' }, NOW);
    expect(r.preset).toBe('1h');
    expect(r.toS).toBe(Date.parse('2026-01-31T10:01:00Z') / 1000);
    expect(r.fromS).toBe(Date.parse('2026-01-31T09:00:00Z') / 1000);
    expect(r.bucketS).toBe(60);
  });

  it('defaults to the last hour', () => {
    expect(parseTimeRange({}, NOW).preset).toBe('1h');
  });

  it('reads a custom range as UTC ISO or unix seconds, widened to whole minutes', () => {
    const r = parseTimeRange({ from: '2026-01-31T09:30:10', to: '1769853630' }, NOW);
    expect(r.preset).toBeNull();
    expect(r.fromS).toBe(Date.parse('2026-01-31T09:30:00Z') / 1000);
    expect(r.toS).toBe(Math.ceil(1769853630 / 60) * 60);
  });

  it('says what is wrong with bad input', () => {
    expect(() => parseTimeRange({ range: '2w' }, NOW)).toThrow(/not a preset: use one of 15m, 1h/);
    expect(() => parseTimeRange({ from: 'yesterday' }, NOW)).toThrow(/is not a time: use ISO 8601/);
    expect(() => parseTimeRange({ to: '2026-01-31T09:00' }, NOW)).toThrow(/needs "from"/);
    expect(() => parseTimeRange({ from: '2026-01-31T09:00', to: '2026-01-31T08:00' }, NOW)).toThrow(
      /"from" must be before "to"/,
    );
  });

  it('refuses ranges the store cannot hold or a page cannot answer quickly, saying the bound', () => {
    expect(() => parseTimeRange({ from: '1970-01-01' }, NOW)).toThrow(/"from" must be in 2000 or later/);
    expect(() => parseTimeRange({ from: '1900-01-01', to: '2026-01-01' }, NOW)).toThrow(/2000 or later/);
    expect(() => parseTimeRange({ from: '2026-01-01', to: '9999-01-01' }, NOW)).toThrow(
      /"to" must be at most a day from now/,
    );
    expect(() => parseTimeRange({ from: '2024-01-01', to: '2026-01-31' }, NOW)).toThrow(
      /at most 400 days; narrow "from"\/"to" \(got 761 days\)/,
    );
    expect(() => parseTimeRange({ from: `2026-01-01${'0'.repeat(100)}` }, NOW)).toThrow(/is not a time/);
    // The widest range accepted, ending now.
    expect(parseTimeRange({ from: '2025-01-27T10:00' }, NOW).fromS).toBe(
      Date.parse('2025-01-27T10:00Z') / 1000,
    );
  });

  it('picks buckets for about a hundred points', () => {
    expect(bucketFor(3600)).toBe(60);
    expect(bucketFor(24 * 3600)).toBe(900);
    expect(bucketFor(30 * 24 * 3600)).toBe(21600);
  });
});

describe('parseDashboardParams', () => {
  it('reads filters and the SLO target from the URL', () => {
    const p = parseDashboardParams({ range: '6h', service: 'payments', source: 'db', slo: '99.9' }, NOW);
    expect(p).toMatchObject({ service: 'payments', source: 'db', slo: 99.9 });
  });

  it('refuses names that are not plain names and impossible SLOs', () => {
    expect(() => parseDashboardParams({ service: "x' OR 1=1" }, NOW)).toThrow(/must be a plain name/);
    expect(() => parseDashboardParams({ slo: '100' }, NOW)).toThrow(/between 0 and 100/);
    expect(() => parseDashboardParams({ slo: 'high' }, NOW)).toThrow(/between 0 and 100/);
  });

  it('reads a class and a dependency, whose names have spaces and braces', () => {
    const p = parseDashboardParams({ class: 'transient', dependency: 'api.example.com /users/{id}' }, NOW);
    expect(p).toMatchObject({ class: 'transient', dependency: 'api.example.com /users/{id}' });
    expect(parseDashboardParams({}, NOW)).toMatchObject({ class: '', dependency: '' });
  });

  it('refuses a class that is not an envelope class and a dependency with control characters', () => {
    expect(() => parseDashboardParams({ class: 'flaky' }, NOW)).toThrow(/"class" must be one of validation/);
    expect(() => parseDashboardParams({ dependency: 'db\nshop' }, NOW)).toThrow(/printable/);
    expect(() => parseDashboardParams({ dependency: 'x'.repeat(201) }, NOW)).toThrow(/at most 200/);
  });
});

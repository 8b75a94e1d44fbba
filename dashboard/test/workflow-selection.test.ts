import { describe, expect, it } from 'vitest';
import { parseDashboardParams } from '../src/lib/dashboard-params';
import {
  describeWorkflowFilters,
  parseWorkflowFilters,
  workflowFilterQueryParams,
  workflowsHref,
} from '../src/lib/workflow-selection';

const NOW = Date.parse('2026-01-31T10:00:30Z');
const sp = (query: string) => Object.fromEntries(new URLSearchParams(query));
const page = (query: string) => parseDashboardParams(sp(query), NOW);

describe('workflowsHref', () => {
  it('opens the list at its heading with exactly the filters of the count, the range and service kept', () => {
    const href = workflowsHref(page('range=6h&service=shop'), {
      outcome: 'failed',
      first: { class: 'validation', service: 'shop', source: 'db', code: '' },
    });
    const url = new URL(href, 'http://x');
    expect(url.pathname).toBe('/workflows');
    expect(url.hash).toBe('#recent-title');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      range: '6h',
      service: 'shop',
      failed: '1',
      first: '1',
      first_class: 'validation',
      first_service: 'shop',
      first_source: 'db',
    });
    expect(url.searchParams.has('first_code')).toBe(false);
  });

  it('reads back what it wrote: an absent field of the first failure is an empty one', () => {
    const url = new URL(workflowsHref(page('range=1h'), { steps: 3, outcome: 'succeeded' }), 'http://x');
    const f = parseWorkflowFilters(Object.fromEntries(url.searchParams));
    expect(f).toEqual({ outcome: 'succeeded', steps: 3, first: null });
    expect(workflowFilterQueryParams(f)).toMatchObject({ failed: 0, steps: 3, first: 0 });
    const none = parseWorkflowFilters(sp('failed=1&first=1'));
    expect(none.first).toEqual({ class: '', service: '', source: '', code: '' });
    expect(workflowFilterQueryParams(none)).toMatchObject({ failed: 1, steps: -1, first: 1, first_code: '' });
    expect(describeWorkflowFilters(none)).toBe('that failed, whose first failure was of no class recorded');
  });
});

describe('parseWorkflowFilters', () => {
  it.each([
    ['failed=yes', /"failed" is 1 .* or absent, got "yes"/],
    ['steps=1.5', /"steps" is a whole number/],
    ['first=true', /"first" is 1/],
    ['first=1&first_class=fatal', /"first_class" must be one of/],
    ['first_service=shop', /add first=1, or remove it/],
    ['first=1&first_code=%07', /"first_code" must be a failure code/],
  ])('refuses %s with the fix', (query, message) => {
    expect(() => parseWorkflowFilters(sp(query))).toThrow(message);
  });
});

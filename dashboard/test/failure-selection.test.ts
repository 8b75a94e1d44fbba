import { describe, expect, it } from 'vitest';
import { parseDashboardParams } from '../src/lib/dashboard-params';
import { failureFilterQueryParams, failuresHref, parseFailureFilters } from '../src/lib/failure-selection';

const NOW = Date.parse('2026-01-31T10:00:30Z');
const page = (query: string) => parseDashboardParams(Object.fromEntries(new URLSearchParams(query)), NOW);
const opened = (href: string) => Object.fromEntries(new URL(href, 'http://x').searchParams);

describe('failuresHref', () => {
  it('names every field of the count exactly, an empty one through none, the page’s other filters kept', () => {
    const href = failuresHref(page('range=1h&dependency=db1&source=http&caller_faults=exclude'), {
      service: 'inventory',
      dependency: '',
      class: 'authentication',
      code: '401',
    });
    expect(href.startsWith('/failures?')).toBe(true);
    expect(opened(href)).toMatchObject({
      range: '1h',
      service: 'inventory',
      class: 'authentication',
      source: 'http',
      code: '401',
      none: 'dependency',
      caller_faults: 'exclude',
    });
    expect(opened(href).dependency).toBeUndefined();
  });

  it('narrows to outbound calls, to what the budget counts, and to a bucket of the range', () => {
    const q = opened(
      failuresHref(page('range=1h'), {
        service: 'checkout',
        outbound: true,
        counted: 'no',
        fromS: 60,
        toS: 120,
      }),
    );
    expect(q).toMatchObject({ outbound: '1', counted: 'no', from: '60', to: '120' });
    expect(q.range).toBeUndefined();
  });

  it('is read back as the same filters', () => {
    const href = failuresHref(page('range=1h'), { code: '', source: '', outbound: true, counted: 'yes' });
    const sp = opened(href);
    expect(parseFailureFilters(sp)).toEqual({
      none: ['source', 'code'],
      outbound: true,
      counted: 'yes',
    });
    // Caller faults left out unless the page includes them: the classes "counted" sets aside.
    const f = parseFailureFilters(sp);
    expect(failureFilterQueryParams(page('caller_faults=exclude'), f).left_out).toEqual(['validation']);
    expect(failureFilterQueryParams(page('caller_faults=include'), f).left_out).toEqual([]);
  });
});

describe('parseFailureFilters', () => {
  it('refuses what it cannot read, saying what it takes', () => {
    expect(() => parseFailureFilters({ none: 'class' })).toThrow(/"none" lists fields/);
    expect(() => parseFailureFilters({ outbound: 'yes' })).toThrow(/"outbound" is 1/);
    expect(() => parseFailureFilters({ counted: 'maybe' })).toThrow(/"counted" is yes/);
    // The code is the narrowing's, shared with the Overview and Dependencies (narrowing.ts).
    expect(() => parseDashboardParams({ code: 'a\u0000b' }, NOW)).toThrow(/"code" must be a failure code/);
  });
});

import { describe, expect, it } from 'vitest';
import { type CriticalPathSpan, criticalPath } from '../src/lib/critical-path';

// Hand-built requests: times in ms (the function takes any unit), expected paths worked out by
// hand from the timings written beside each span, never from the function.
const span = (spanId: string, parentSpanId: string, start: number, end: number): CriticalPathSpan => ({
  spanId,
  parentSpanId,
  startNs: start,
  durationNs: end - start,
});

describe('criticalPath', () => {
  it('is the root alone when nothing ran beneath it', () => {
    expect(criticalPath([span('root', '', 0, 100)])).toEqual({
      spanIds: ['root'],
      sections: [{ spanId: 'root', startNs: 0, endNs: 100 }],
    });
  });

  it('takes every sequential child, back-to-back ones included, and gives the gaps to the parent', () => {
    const got = criticalPath([
      span('root', '', 0, 100),
      span('a', 'root', 10, 30),
      span('b', 'root', 30, 60), // starts the moment a ends
      span('c', 'root', 70, 90),
    ]);
    expect(got.spanIds).toEqual(['root', 'c', 'b', 'a']);
    expect(got.sections).toEqual([
      { spanId: 'root', startNs: 90, endNs: 100 },
      { spanId: 'c', startNs: 70, endNs: 90 },
      { spanId: 'root', startNs: 60, endNs: 70 },
      { spanId: 'b', startNs: 30, endNs: 60 },
      { spanId: 'a', startNs: 10, endNs: 30 },
      { spanId: 'root', startNs: 0, endNs: 10 },
    ]);
  });

  it('leaves out a child that ran in parallel with the one the parent waited on', () => {
    const got = criticalPath([
      span('root', '', 0, 100),
      span('x', 'root', 10, 80), // ends last
      span('y', 'root', 20, 60), // wholly inside x's time: hidden by it
      span('z', 'root', 5, 15), // ends after x started: overlaps it
      span('w', 'root', 0, 8), // ends before x starts: the root waited on it first
    ]);
    expect(got.spanIds).toEqual(['root', 'x', 'w']);
  });

  it('clips an async child that outlives its parent to the parent end, and drops one wholly after it', () => {
    const got = criticalPath([
      span('root', '', 0, 100),
      span('p', 'root', 10, 50),
      span('q', 'root', 60, 150), // counts as 60–100
      span('q1', 'q', 90, 140), // clipped with q: 90–100
      span('r', 'root', 110, 200), // ends last of all, but after the root ended
    ]);
    expect(got.spanIds).toEqual(['root', 'q', 'q1', 'p']);
    expect(got.sections).toEqual([
      { spanId: 'q1', startNs: 90, endNs: 100 },
      { spanId: 'q', startNs: 60, endNs: 90 },
      { spanId: 'root', startNs: 50, endNs: 60 },
      { spanId: 'p', startNs: 10, endNs: 50 },
      { spanId: 'root', startNs: 0, endNs: 10 },
    ]);
  });

  it('descends through every level, whatever order the spans arrive in', () => {
    // The e2e scenario's shape (send-critical-request.ts): a checkout across three services.
    const got = criticalPath(
      [
        span('J', 'I', 36, 70),
        span('G', 'F', 20, 30),
        span('K', 'F', 22, 31),
        span('H', 'F', 32, 75),
        span('I', 'H', 34, 74),
        span('F', 'C', 18, 78),
        span('D', 'A', 20, 60),
        span('E', 'A', 90, 130),
        span('C', 'A', 15, 80),
        span('B', 'A', 2, 12),
        span('A', '', 0, 100),
      ].reverse(),
    );
    expect(got.spanIds).toEqual(['A', 'E', 'C', 'F', 'H', 'I', 'J', 'K', 'B']);
  });

  it('starts from a true root, and from the latest-ending orphan only when there is none', () => {
    const withRoot = criticalPath([span('lost-child', 'gone', 0, 500), span('root', '', 0, 100)]);
    expect(withRoot.spanIds).toEqual(['root']);
    const orphansOnly = criticalPath([
      span('o1', 'gone', 0, 100),
      span('o2', 'gone', 10, 120),
      span('o2a', 'o2', 20, 30),
    ]);
    expect(orphansOnly.spanIds).toEqual(['o2', 'o2a']);
  });

  it('counts a re-sent span once and survives a cycle and a 5,000-deep chain', () => {
    expect(
      criticalPath([span('root', '', 0, 10), span('a', 'root', 1, 9), span('a', 'root', 1, 9)]).spanIds,
    ).toEqual(['root', 'a']);
    // A cycle has no root: nothing to walk from.
    expect(criticalPath([span('x', 'y', 0, 10), span('y', 'x', 0, 10)]).spanIds).toEqual([]);
    const chain = Array.from({ length: 5000 }, (_, i) =>
      span(`s${i}`, i === 0 ? '' : `s${i - 1}`, i, 10_000 - i),
    );
    expect(criticalPath(chain).spanIds).toHaveLength(5000);
    expect(criticalPath([])).toEqual({ spanIds: [], sections: [] });
  });
});

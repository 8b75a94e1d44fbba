import { describe, expect, it } from 'vitest';
import { deployAnchor, deployMarkers } from '../src/lib/deploy-markers';

// 2026-01-31 09:30:00 UTC.
const T = Date.UTC(2026, 0, 31, 9, 30, 0) / 1000;

describe('deploy markers', () => {
  const row = (service: string, version: string, minute: number, second = 0) => ({
    service,
    version,
    t: T + minute * 60,
    firstSeenMs: (T + minute * 60 + second) * 1000,
  });

  it('marks a version where it appears after a bucket without it, never in the first bucket', () => {
    const markers = deployMarkers([
      row('shop', '1.0.0', 0),
      row('shop', '1.0.0', 1),
      // A gap of two minutes without spans is no deploy.
      row('shop', '1.0.0', 4),
      row('shop', '2.0.0', 5, 7),
      row('shop', '1.0.0', 5, 2),
      row('shop', '2.0.0', 6),
      // A rollback is a deploy too.
      row('shop', '1.0.0', 7, 3),
      row('cart', '9', 0),
    ]);
    expect(markers).toEqual([
      { service: 'shop', version: '2.0.0', atMs: (T + 307) * 1000, previous: ['1.0.0'] },
      { service: 'shop', version: '1.0.0', atMs: (T + 423) * 1000, previous: ['2.0.0'] },
    ]);
  });

  it('gives each deploy an anchor an id can hold', () => {
    expect(deployAnchor('shop', '2.0.0')).toBe('deploy-shop-2.0.0');
    expect(deployAnchor('a b', 'v/1')).toBe('deploy-a_20b-v_2F1');
  });
});

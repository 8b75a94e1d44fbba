import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { samplingWeightOf, spanWeightOf } from '@faultline/instrumentation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/index.js';
import type { Store } from '../../src/types.js';

/**
 * A span's sampling weight has two homes by necessity, like the span source: the collector reads it
 * at ingest (samplingWeightOf) and every view through faultline_sample_weight (005). Both run here
 * over the same tracestates; the expected weights are the specification's ("TraceState:
 * Probability Sampling": th is the rejection threshold T with trailing zeros dropped, the adjusted
 * count 2^56 / (2^56 − T)), worked by hand.
 */
const CASES: { traceState: string; weight: number; mark: 'none' | 'valid' | 'invalid' }[] = [
  { traceState: '', weight: 1, mark: 'none' },
  { traceState: 'vendor=abc', weight: 1, mark: 'none' },
  { traceState: 'ot=rv:0123456789abcd', weight: 1, mark: 'none' },
  { traceState: 'ot=th:0', weight: 1, mark: 'valid' }, // always sampled
  { traceState: 'ot=th:8', weight: 2, mark: 'valid' }, // T = 2^55: p = 1/2
  { traceState: 'ot=th:c', weight: 4, mark: 'valid' }, // T = 3·2^54: p = 1/4
  { traceState: 'ot=th:e', weight: 8, mark: 'valid' }, // p = 1/8
  { traceState: 'ot=th:ffffc', weight: 2 ** 18, mark: 'valid' }, // 2^56 − T = 2^38
  // T within 4 of 2^56 rounds to 2^56 as a double: 2^56 − T is taken in whole numbers.
  { traceState: 'ot=th:ffffffffffffff', weight: 2 ** 56, mark: 'valid' }, // 2^56 − T = 1
  { traceState: 'ot=th:fffffffffffffc', weight: 2 ** 54, mark: 'valid' }, // 2^56 − T = 4
  { traceState: 'congo=t61rcWkgMzE,ot=rv:abcdefabcdefab;th:c', weight: 4, mark: 'valid' },
  { traceState: 'ot=th:C', weight: 1, mark: 'invalid' }, // the spec's digits are lower case
  { traceState: 'ot=th:', weight: 1, mark: 'invalid' },
  { traceState: 'ot=th:123456789abcdef', weight: 1, mark: 'invalid' }, // 15 digits
  { traceState: 'ot=th:0x10', weight: 1, mark: 'invalid' },
];

let dir: string;
let store: Store;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'faultline-sampling-weight-'));
  store = await openStore({ dataDir: join(dir, 'data') });
});

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('sampling weight: samplingWeightOf and faultline_sample_weight agree with the specification', () => {
  it.each(CASES)('$traceState → $weight ($mark)', async ({ traceState, weight, mark }) => {
    expect(samplingWeightOf(traceState)).toEqual({ weight, mark });
    const rs = await store.client.query({
      query:
        'SELECT faultline_sample_weight({t:String}) AS weight, faultline_sample_mark({t:String}) AS mark',
      query_params: { t: traceState },
      format: 'JSONEachRow',
    });
    expect(await rs.json()).toEqual([{ weight, mark }]);
  });

  it("1% sampling's threshold gives an adjusted count of 100 to the printed precision", async () => {
    // The specification's example: p = 0.01 → th:fd70a3d70a3d71 (14 digits).
    expect(samplingWeightOf('ot=th:fd70a3d70a3d71').weight).toBeCloseTo(100, 9);
  });
});

describe('span weight: spanWeightOf and faultline_span_weight give a failure-path span no weight', () => {
  const SPANS: { traceState: string; kept: string; weight: number }[] = [
    { traceState: 'ot=th:c', kept: '', weight: 4 }, // a sampled success: 1/p
    { traceState: 'ot=th:0', kept: 'failure', weight: 1 }, // a kept failure: exact
    { traceState: '', kept: 'path', weight: 0 }, // an unsampled ancestor of a kept failure
    { traceState: 'ot=th:c', kept: 'path', weight: 0 },
    { traceState: 'ot=th:c', kept: 'other', weight: 4 }, // an unknown mark changes nothing
    { traceState: 'ot=th:zz', kept: '', weight: 1 },
  ];
  it.each(SPANS)('$traceState kept=$kept → $weight', async ({ traceState, kept, weight }) => {
    expect(spanWeightOf(traceState, kept || undefined)).toBe(weight);
    const rs = await store.client.query({
      query: "SELECT faultline_span_weight({t:String}, map('faultline.sampling.kept', {k:String})) AS weight",
      query_params: { t: traceState, k: kept },
      format: 'JSONEachRow',
    });
    expect(await rs.json()).toEqual([{ weight }]);
  });
});

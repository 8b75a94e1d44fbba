/**
 * A span's weight under probability sampling: the adjusted count 1/p from the final rejection
 * threshold `th` in its W3C `tracestate` (OpenTelemetry specification, "TraceState: Probability
 * Sampling"): `ot=th:<1–14 hex digits>`, the threshold T with trailing zeros dropped, kept when the
 * trace's 56 random bits are ≥ T; p = (2^56 − T) / 2^56. `th:0` is weight 1 (always sampled).
 * A span with no `th` is weight 1 and says nothing ('none'); a malformed one is weight 1 and
 * counted as invalid, never refused. The twin of faultline_sample_weight / faultline_sample_mark in
 * sql/schema/005_functions.sql (parity: sql/test/counting/sampling-weight-parity.test.ts).
 */
export interface SamplingWeight {
  weight: number;
  mark: 'none' | 'valid' | 'invalid';
}

import { SAMPLING_KEPT_PATH } from './attribute-names.js';

const TWO_56 = 2 ** 56;
const TWO_56_INT = 1n << 56n;
/** The `th` sub-key of the `ot` list member: `ot=th:c;rv:…`, members separated by commas. */
const TH = /(?:^|,)[ \t]*ot=(?:[^,]*;)?th:([^;,]*)/;
const HEX_THRESHOLD = /^[0-9a-f]{1,14}$/;

export function samplingWeightOf(traceState: string | undefined): SamplingWeight {
  if (!traceState) return { weight: 1, mark: 'none' };
  const th = TH.exec(traceState)?.[1];
  if (th === undefined) return { weight: 1, mark: 'none' };
  if (!HEX_THRESHOLD.test(th)) return { weight: 1, mark: 'invalid' };
  // 14 hex digits = 56 bits, past a double's 53: 2^56 − T is taken in whole numbers (as ClickHouse
  // takes it), since T near 2^56 rounds to 2^56 as a double and the weight would be infinite.
  const threshold = BigInt(`0x${th.padEnd(14, '0')}`);
  return { weight: TWO_56 / Number(TWO_56_INT - threshold), mark: 'valid' };
}

/**
 * The weight a stored span counts for: its sampling weight, or 0 for a span the preload exported
 * only to explain a kept failure of an unsampled trace (ATTR_SAMPLING_KEPT = 'path'). The twin of
 * faultline_span_weight (sql/schema/005_functions.sql).
 */
export function spanWeightOf(traceState: string | undefined, kept: unknown): number {
  return kept === SAMPLING_KEPT_PATH ? 0 : samplingWeightOf(traceState).weight;
}

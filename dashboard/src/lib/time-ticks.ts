const STEPS_S = [60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800];

/**
 * Axis ticks on round times for [fromS, toS]: the smallest step giving at most `max` ticks, each a
 * multiple of it (recharts' own ticks on a number axis land on odd seconds).
 */
export function timeTicks(fromS: number, toS: number, max = 8): number[] {
  const span = Math.max(1, toS - fromS);
  const step = STEPS_S.find((s) => span / s <= max) ?? STEPS_S[STEPS_S.length - 1]!;
  const ticks: number[] = [];
  for (let t = Math.ceil(fromS / step) * step; t <= toS; t += step) ticks.push(t);
  return ticks;
}

/** The tick label's style: the clock within a day, else the date too. */
export function tickStyle(fromS: number, toS: number): 'clock' | 'short' {
  return toS - fromS <= 86_400 ? 'clock' : 'short';
}

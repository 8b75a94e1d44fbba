/**
 * The compounding the workflows page makes visible: with per-step success p, an n-step workflow
 * succeeds p^n of the time (95% per step over 20 steps is 35.8%).
 */
export function stepReliability(steps: number, failedSteps: number): number {
  return steps > 0 ? 1 - failedSteps / steps : 1;
}

export function predictedEndToEnd(perStep: number, steps: number): number {
  return perStep ** steps;
}

/**
 * Expected end-to-end success of a mix of workflows of different lengths: the mean of p^n over the
 * workflows, not p^(mean n) (a mix of 1- and 39-step workflows is not a mix of 20-step ones).
 */
export function predictedMixture(perStep: number, buckets: { steps: number; workflows: number }[]): number {
  const total = buckets.reduce((s, b) => s + b.workflows, 0);
  if (total === 0) return 1;
  return buckets.reduce((s, b) => s + b.workflows * perStep ** b.steps, 0) / total;
}

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

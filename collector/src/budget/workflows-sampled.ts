import type { RunBudgetQuery } from './run-budget-query.js';

/**
 * Whether any workflow that started at or after fromS may stand for other than itself under trace
 * sampling (workflows_sampled over sampled_minutes, 535): the `sampled` parameter of the queries
 * that sum workflow weights. Asked once per page render or alert evaluation, so where nothing was
 * sampled (a fleet without a sampler) those queries read no weight column at all; true is always
 * right, only slower.
 */
export async function readWorkflowsSampled(run: RunBudgetQuery, fromS: number): Promise<boolean> {
  const row = (await run('workflows_sampled', { from: fromS }))[0];
  return row?.sampled === true || Number(row?.sampled) === 1;
}

import { checkParam } from '../../src/store/check-param.js';
import type { Store } from '../../src/types.js';

/**
 * The workflow queries' parameters as the pages and alerts send them: `sampled` is
 * workflows_sampled's answer for the range's start (collector/src/budget/workflows-sampled.ts
 * asks it so; this package cannot import the collector). A budget query's range starts at the
 * earlier of period_from and from.
 */
export async function withSampled<P extends { from: unknown; period_from?: unknown }>(
  store: Store,
  params: P,
): Promise<P & { sampled: boolean }> {
  const from =
    params.period_from !== undefined && seconds(params.period_from) < seconds(params.from)
      ? params.period_from
      : params.from;
  const { rows } = await store.runNamed<{ sampled: unknown }>('dashboard/workflows_sampled', { from });
  return { ...params, sampled: rows[0]?.sampled === true || Number(rows[0]?.sampled) === 1 };
}

/** A DateTime parameter as Unix seconds, read as runNamed binds it (checkParam). */
function seconds(value: unknown): number {
  return Number(checkParam('from', 'DateTime', value));
}

import { visibleText } from '@faultline/sql/format';
import { cache } from 'react';
import { getStore } from './store';

/**
 * Every panel goes through here: one named query of sql/queries (the panels' own are under
 * dashboard/), its parameters validated by the store. React's cache() dedupes identical calls
 * within one render, so two panels that need the same rows (the headline and the matrix) cost one
 * query.
 */
export const runPanelQuery = cache(
  async (name: string, paramsJson: string): Promise<Record<string, unknown>[]> => {
    const store = await getStore();
    const result = await store.runNamed<Record<string, unknown>>(name, JSON.parse(paramsJson), {
      maxExecutionSeconds: 20,
    });
    return result.rows;
  },
);

/** Params are serialized so cache() compares them by value. */
export function panelQuery(
  name: string,
  params: Record<string, unknown>,
): Promise<Record<string, unknown>[]> {
  return runPanelQuery(`dashboard/${name}`, JSON.stringify(params));
}

/**
 * A named query of another folder of sql/queries that a page shows as it is, the one people run
 * during incident review (e.g. `agents/agent_judgements`): run as the panels' are.
 */
export function namedQuery(
  name: `${string}/${string}`,
  params: Record<string, unknown>,
): Promise<Record<string, unknown>[]> {
  return runPanelQuery(name, JSON.stringify(params));
}

/** ClickHouse returns 64-bit integers as strings in JSON: read every count through this. */
export function num(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value !== '') return Number(value);
  return 0;
}

/** A text column for display: span data, so invisible and reordering characters made visible. */
export function str(value: unknown): string {
  return visibleText(idStr(value));
}

/** A text column used as an id (a link's target, a lookup key): kept exactly as stored. */
export function idStr(value: unknown): string {
  return typeof value === 'string' ? value : value == null ? '' : String(value);
}

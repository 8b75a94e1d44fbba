import type { DashboardParams } from '../lib/dashboard-params';

/**
 * A link to the SQL console with a named query selected and its parameters filled from the page's
 * filters: the "rows behind the chart", one click away and editable.
 */
export function sqlConsoleHref(
  name: string,
  p: DashboardParams,
  extra: Record<string, string | number | string[]> = {},
): string {
  const q = new URLSearchParams({ query: name });
  const values: Record<string, string | number | string[]> = {
    // Unix seconds: parsed the same by the store's checker and ClickHouse in any time zone.
    from: p.range.fromS,
    to: p.range.toS,
    service: p.service,
    source: p.source,
    ...extra,
  };
  // An array travels as JSON, as the console's text box reads it back.
  for (const [k, v] of Object.entries(values))
    q.set(`p.${k}`, Array.isArray(v) ? JSON.stringify(v) : String(v));
  return `/sql?${q.toString()}`;
}

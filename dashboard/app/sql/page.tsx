import { type NamedQueryView, SqlConsole } from '../../src/components/sql-console';
import type { SearchParams } from '../../src/lib/dashboard-params';
import { CONSOLE_MAX_ROWS, CONSOLE_MAX_SECONDS, consoleNamedQueries } from '../../src/server/sql-console';

export const dynamic = 'force-dynamic';

/** `/sql?query=<name>&p.<param>=<value>` opens a named query with its parameters filled in. */
export default async function SqlPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  const queries: NamedQueryView[] = await consoleNamedQueries();
  const initialParams: Record<string, string> = {};
  for (const [key, value] of Object.entries(sp)) {
    const v = Array.isArray(value) ? value[0] : value;
    if (key.startsWith('p.') && v !== undefined) initialParams[key.slice(2)] = v;
  }
  const q = sp.query;
  return (
    <>
      <h1>SQL</h1>
      <p className="muted">
        Incident review over <code>otel_traces</code>, <code>failures</code> and <code>calls_1m</code>. The
        same named queries run with <code>clickhouse client --param_name=…</code>.
      </p>
      <SqlConsole
        queries={queries}
        initialName={(Array.isArray(q) ? q[0] : q) ?? null}
        initialParams={initialParams}
        maxRows={CONSOLE_MAX_ROWS}
        maxSeconds={CONSOLE_MAX_SECONDS}
      />
    </>
  );
}

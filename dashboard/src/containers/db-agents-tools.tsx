import Link from 'next/link';
import { ClassBadge } from '../components/class-badge';
import { HdxAgentToolsChart, type ToolBar } from '../components/hdx-agent-tools-chart';
import type { DashboardParams } from '../lib/dashboard-params';
import { formatCount, formatPercent } from '../lib/format';
import { loadToolsByClass } from '../server/agent-data';
import { sqlConsoleHref } from '../server/sql-links';

/** Agents' tools by class of failure, and the share of the reliability budget each consumed. */
export async function DBAgentsTools({ params }: { params: DashboardParams }) {
  const rows = await loadToolsByClass(params);
  const bars = new Map<string, ToolBar>();
  for (const r of rows) {
    const bar = bars.get(r.tool) ?? { tool: r.tool };
    bar[r.class] = Number(bar[r.class] ?? 0) + r.failedToolCalls;
    bars.set(r.tool, bar);
  }
  return (
    <section className="panel" aria-labelledby="agent-tools-title">
      <h2 id="agent-tools-title">Tools by class of failure</h2>
      {rows.length === 0 ? (
        <p className="muted">No tool of an agent failed in this range.</p>
      ) : (
        <>
          <HdxAgentToolsChart data={[...bars.values()]} />
          <table data-testid="agent-tools">
            <thead>
              <tr>
                <th>tool</th>
                <th>class</th>
                <th className="num">failed tool calls</th>
                <th className="num">first-hand failures in it</th>
                <th className="num">share of the budget</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={`${r.tool}/${r.class}`} data-testid="agent-tool">
                  <td className="nowrap">
                    <code>{r.tool}</code>
                  </td>
                  <td>
                    <ClassBadge value={r.class} />
                  </td>
                  <td className="num">{formatCount(r.failedToolCalls)}</td>
                  <td className="num">{formatCount(r.firstHand)}</td>
                  <td className="num">{formatPercent(r.budgetShare)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      <p className="muted">
        A failed tool call whose HTTP request or query failed first is that call's echo: the first-hand
        failure is the request's, counted here under the tool, and its share is of every first-hand failure in
        the range. <Link href={sqlConsoleHref('agents/agent_tools_by_class', params)}>Open as a query</Link>
      </p>
    </section>
  );
}

import { visibleText } from '@faultline/sql/format';
import Link from 'next/link';
import { ClassBadge } from '../components/class-badge';
import type { DashboardParams } from '../lib/dashboard-params';
import { formatCount, formatPercent } from '../lib/format';
import { dashboardHref } from '../lib/url-state';
import { loadWorstPairs, WORST_PAIRS_LIMIT } from '../server/agent-data';
import { sqlConsoleHref } from '../server/sql-links';

/** Which agent, model and tool together go wrong most after a failed tool call. */
export async function DBAgentsWorstPairs({ params }: { params: DashboardParams }) {
  const rows = await loadWorstPairs(params);
  return (
    <section className="panel" aria-labelledby="agent-pairs-title">
      <h2 id="agent-pairs-title">
        Worst agent, model and tool{' '}
        {rows.length >= WORST_PAIRS_LIMIT ? (
          <span className="muted">the {WORST_PAIRS_LIMIT} with the most wrong actions</span>
        ) : null}
      </h2>
      {rows.length === 0 ? (
        <p className="muted">No wrong next action in this range.</p>
      ) : (
        <table data-testid="agent-worst-pairs">
          <thead>
            <tr>
              <th>agent</th>
              <th>model</th>
              <th>tool</th>
              <th className="num">failed calls</th>
              <th className="num">right</th>
              <th className="num">wrong</th>
              <th className="num">compliance</th>
              <th>most wrong after</th>
              <th>example run</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={`${r.agent}/${r.model}/${r.tool}`} data-testid="agent-pair">
                <td className="nowrap">
                  <Link href={dashboardHref('/agents', params, { agent: r.agent })}>{r.agent}</Link>
                </td>
                <td className="nowrap">{r.model}</td>
                <td className="nowrap">
                  <code>{r.tool}</code>
                </td>
                <td className="num">{formatCount(r.failedCalls)}</td>
                <td className="num">{formatCount(r.right)}</td>
                <td className="num">{formatCount(r.wrong)}</td>
                <td className="num">{r.compliance === null ? '–' : formatPercent(r.compliance)}</td>
                <td>{r.worstClass ? <ClassBadge value={r.worstClass} /> : null}</td>
                <td>
                  <Link href={`/request?id=${encodeURIComponent(r.exampleTraceId)}`}>
                    <code>{visibleText(r.exampleTraceId.slice(0, 16))}</code>
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="muted">
        <Link href={sqlConsoleHref('agents/agent_worst_pairs', params, { limit: WORST_PAIRS_LIMIT })}>
          Open as a query
        </Link>
      </p>
    </section>
  );
}

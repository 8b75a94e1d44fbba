import Link from 'next/link';
import { ClassBadge } from '../components/class-badge';
import type { AgentFilter } from '../lib/agent-filter';
import { agentPolicyOf } from '../lib/agent-policy';
import type { DashboardParams } from '../lib/dashboard-params';
import { formatCount, formatPercent } from '../lib/format';
import { loadCompliance } from '../server/agent-data';
import { sqlConsoleHref } from '../server/sql-links';

const compliance = (right: number, wrong: number) =>
  right + wrong > 0 ? formatPercent(right / (right + wrong)) : '–';

/** "Did the agent follow the class?": per class, the next actions after failed tool calls, judged. */
export async function DBAgentsCompliance({
  params,
  filter,
}: {
  params: DashboardParams;
  filter: AgentFilter;
}) {
  const rows = await loadCompliance(params, filter.agent);
  const total = rows.reduce(
    (t, r) => ({ calls: t.calls + r.failedCalls, right: t.right + r.right, wrong: t.wrong + r.wrong }),
    { calls: 0, right: 0, wrong: 0 },
  );
  return (
    <>
      <div className="stat-row" data-testid="agent-stats">
        <div className="stat">
          failed tool calls <strong data-testid="agent-failed-calls">{formatCount(total.calls)}</strong>
        </div>
        <div className="stat">
          right next actions <strong data-testid="agent-right">{formatCount(total.right)}</strong>
        </div>
        <div className="stat">
          wrong next actions <strong data-testid="agent-wrong">{formatCount(total.wrong)}</strong>
        </div>
        <div className="stat">
          compliance{' '}
          <strong data-testid="agent-compliance-total">{compliance(total.right, total.wrong)}</strong>
        </div>
      </div>
      <section className="panel" aria-labelledby="agent-compliance-title">
        <h2 id="agent-compliance-title">
          Did the agent follow the class?{' '}
          {filter.agent ? <span className="muted">agent {filter.agent}</span> : null}
        </h2>
        {rows.length === 0 ? (
          <p className="muted">No failed tool call of an agent in this range.</p>
        ) : (
          <table data-testid="agent-compliance">
            <thead>
              <tr>
                <th>class</th>
                <th>the class asks</th>
                <th className="num">failed tool calls</th>
                <th className="num">right</th>
                <th className="num">wrong</th>
                <th className="num">no verdict</th>
                <th className="num">compliance</th>
                <th>wrong actions seen</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.class} data-testid="agent-compliance-row" data-class={r.class}>
                  <td>
                    <ClassBadge value={r.class} />
                  </td>
                  <td>{agentPolicyOf(r.class)}</td>
                  <td className="num">{formatCount(r.failedCalls)}</td>
                  <td className="num" data-testid="right">
                    {formatCount(r.right)}
                  </td>
                  <td className="num" data-testid="wrong">
                    {formatCount(r.wrong)}
                  </td>
                  <td className="num">{formatCount(r.unjudged)}</td>
                  <td className="num" data-testid="compliance">
                    {compliance(r.right, r.wrong)}
                  </td>
                  <td>
                    {r.wrongKinds.map((k) => (
                      <code key={k} className="stacked nowrap">
                        {k}
                      </code>
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <p className="muted">
          Compliance = right / (right + wrong); an action the class's policy says nothing of (replanning after
          a validation error) has no verdict.{' '}
          <Link href={sqlConsoleHref('agents/agent_compliance_by_class', params, { agent: filter.agent })}>
            Open as a query
          </Link>
        </p>
      </section>
    </>
  );
}

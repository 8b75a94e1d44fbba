import { visibleText } from '@faultline/sql/format';
import Link from 'next/link';
import { ClassBadge } from '../components/class-badge';
import { type AgentFilter, VERDICTS } from '../lib/agent-filter';
import type { DashboardParams } from '../lib/dashboard-params';
import { formatTime } from '../lib/format';
import { dashboardHref } from '../lib/url-state';
import { JUDGEMENTS_LIMIT, loadJudgements } from '../server/agent-data';
import { displayZone } from '../server/display-zone';
import { sqlConsoleHref } from '../server/sql-links';

const seconds = (s: number) => `${Number(s.toFixed(3))} s`;

/** Each failed tool call, what the agent did next and the verdict, linked to its run's request tree. */
export async function DBAgentsJudgements({
  params,
  filter,
}: {
  params: DashboardParams;
  filter: AgentFilter;
}) {
  const [rows, zone] = await Promise.all([loadJudgements(params, filter), displayZone()]);
  const chip = (verdict: string, label: string) => (
    <Link
      key={label}
      href={dashboardHref('/agents', params, { agent: filter.agent, verdict })}
      aria-current={filter.verdict === verdict ? 'true' : undefined}
      data-testid={`verdict-${verdict || 'all'}`}
    >
      {label}
    </Link>
  );
  return (
    <section className="panel" aria-labelledby="agent-judgements-title">
      <h2 id="agent-judgements-title">
        Judgements{' '}
        {rows.length >= JUDGEMENTS_LIMIT ? (
          <span className="muted">the newest {JUDGEMENTS_LIMIT}; the SQL console has the rest</span>
        ) : null}
      </h2>
      <p className="muted">
        Show: {chip('', 'all')} · {VERDICTS.map((v, i) => [i > 0 ? ' · ' : '', chip(v, v)])}
      </p>
      {rows.length === 0 ? (
        <p className="muted">No judged tool call in this range.</p>
      ) : (
        <table data-testid="agent-judgements">
          <thead>
            <tr>
              <th>time</th>
              <th>agent · model</th>
              <th>tool</th>
              <th>failure</th>
              <th>next action</th>
              <th className="num">waited · retry after</th>
              <th>verdict</th>
              <th>run</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.spanId} data-testid="agent-judgement" data-verdict={r.verdict}>
                <td className="nowrap">{formatTime(r.atS, zone)}</td>
                <td>
                  <span className="stacked nowrap">{r.agent}</span>
                  <span className="stacked nowrap muted">{r.model}</span>
                </td>
                <td className="nowrap">
                  <code>{r.tool}</code>
                </td>
                <td>
                  <ClassBadge value={r.class} /> <code className="stacked nowrap">{r.code}</code>
                </td>
                <td>
                  <code className="stacked nowrap">{r.action}</code>
                  {r.nextTool ? <span className="stacked nowrap muted">{r.nextTool}</span> : null}
                </td>
                <td className="num">
                  <span className="stacked">{seconds(r.waitedS)}</span>
                  <span className="stacked muted">{r.retryAfter === null ? '–' : seconds(r.retryAfter)}</span>
                </td>
                <td className={r.verdict === 'wrong' ? 'bad nowrap' : 'nowrap'} data-testid="verdict">
                  {r.verdict === 'none' ? 'no verdict' : r.verdict}
                </td>
                <td>
                  <Link
                    href={`/request?id=${encodeURIComponent(r.traceId)}&span=${encodeURIComponent(r.spanId)}`}
                    data-testid="judgement-run"
                  >
                    <code>{visibleText(r.traceId.slice(0, 16))}</code>
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="muted">
        <Link
          href={sqlConsoleHref('agents/agent_judgements', params, {
            agent: filter.agent,
            verdict: filter.verdict,
            limit: JUDGEMENTS_LIMIT,
          })}
        >
          Open as a query
        </Link>
      </p>
    </section>
  );
}

import { BURN_WINDOWS, type Sli } from '@faultline/collector/budget';
import Link from 'next/link';
import { ClassBadge } from '../components/class-badge';
import { CountingNote } from '../components/counting-note';
import { type BudgetBar, HdxBudgetChart } from '../components/hdx-budget-chart';
import { type CountTrust, trustText, trustTitle } from '../lib/count-trust';
import type { DashboardParams } from '../lib/dashboard-params';
import { FAILURE_CLASSES } from '../lib/failure-classes';
import { type FailureRows, failuresHref } from '../lib/failure-selection';
import { formatCount, formatPercent } from '../lib/format';
import { formatBurn, formatSeconds } from '../lib/format-duration';
import { isNarrowed, NO_NARROWING } from '../lib/narrowing';
import { dashboardHref } from '../lib/url-state';
import { loadFiringByService } from '../server/alert-data';
import { budgetSli, loadBudgets, loadBudgetTrust } from '../server/budget-data';
import { sqlConsoleHref } from '../server/sql-links';

const SLI_LABEL: Record<Sli, string> = { requests: 'entry requests', calls: 'outbound calls' };

function allowedText(n: number): string {
  return n < 100 ? n.toFixed(1) : formatCount(n);
}

/** How far to trust a service's count: exact, ±x% or as stored (count-trust.ts). */
function CountedCell({ trust }: { trust: CountTrust | undefined }) {
  const t = trust ?? { kind: 'as-stored' as const };
  return (
    <td data-testid="budget-counted" data-trust={t.kind} title={trustTitle(t)} className="nowrap">
      {trustText(t)}
    </td>
  );
}

/**
 * A failure count of the calls SLI as a link to exactly its rows: the service's first-hand failures
 * of outbound calls, the page's filters kept. A failed request (requests SLI) is no failure row of
 * its own, so those counts stay text.
 */
function FailureCount({
  params,
  rows,
  value,
}: {
  params: DashboardParams;
  rows: FailureRows;
  value: number;
}) {
  if (params.sli !== 'calls') return <>{formatCount(value)}</>;
  return <Link href={failuresHref(params, { ...rows, outbound: true })}>{formatCount(value)}</Link>;
}

/**
 * Error budget per service against the SLO over its period: the share the range spent, by class;
 * the share spent so far in the period, time to exhaustion and burn rates. The table is the rows
 * behind the chart.
 */
export async function DBBudgetChart({ params: pageParams }: { params: DashboardParams }) {
  const params = { ...pageParams, sli: budgetSli(pageParams) };
  // The budget counts every code, version, endpoint and message: its counts open their rows unnarrowed.
  const narrowed = isNarrowed(params.narrow);
  const countParams = narrowed ? { ...params, narrow: NO_NARROWING } : params;
  const [budgets, firing, trust] = await Promise.all([
    loadBudgets(params),
    loadFiringByService(),
    loadBudgetTrust(params),
  ]);
  const bars: BudgetBar[] = budgets.map((b) => {
    const bar: BudgetBar = { service: b.service };
    for (const cls of FAILURE_CLASSES) bar[cls] = (b.usedByRangeByClass[cls] ?? 0) * 100;
    return bar;
  });
  const unit = params.sli === 'requests' ? 'requests' : 'calls';
  return (
    <section className="panel" aria-labelledby="budget-title" data-testid="budget" data-sli={params.sli}>
      <h2 id="budget-title">
        Error budget per service{' '}
        <span className="muted">
          SLO {params.slo}% of {SLI_LABEL[params.sli]} succeed over {params.periodDays} days
        </span>
      </h2>
      <nav className="sli-switch" aria-label="SLI">
        {(Object.keys(SLI_LABEL) as Sli[]).map((sli) => (
          <Link
            key={sli}
            href={dashboardHref('/', params, { sli })}
            aria-current={params.sli === sli ? 'true' : undefined}
            data-testid={`sli-${sli}`}
          >
            {SLI_LABEL[sli]}
          </Link>
        ))}
        <Link
          href={dashboardHref('/', params, {
            caller_faults: params.callerFaults === 'include' ? 'exclude' : 'include',
          })}
          data-testid="caller-faults-toggle"
        >
          {params.callerFaults === 'include' ? 'exclude' : 'include'} validation (caller fault)
        </Link>
      </nav>
      <CountingNote sli={params.sli} callerFaults={params.callerFaults} />
      {params.dependency ? (
        <p className="muted" data-testid="budget-dependency-note">
          The share of each service&apos;s budget that first-hand failures of calls to{' '}
          <code>{params.dependency}</code> spent, over the service&apos;s outbound calls.
        </p>
      ) : null}
      {narrowed ? (
        <p className="muted" data-testid="budget-narrowing-note">
          The budget counts every code, version, endpoint and message: the filters above those narrow the
          other panels only.
        </p>
      ) : null}
      {budgets.length === 0 ? (
        <p className="muted">No {unit} in this range.</p>
      ) : (
        <HdxBudgetChart data={bars} />
      )}
      <table className="budget-table" data-testid="budget-table">
        <thead>
          <tr>
            <th>service</th>
            <th className="num">{unit}</th>
            <th title="exact: counted in process; ±x%: estimated from sampled spans, at 95%">counted</th>
            <th className="num">failures</th>
            <th title="failures counted against the budget, by class" data-testid="budget-by-class-header">
              by class
            </th>
            {params.sli === 'calls' ? (
              <th className="num" title="echoes of deeper failures, not counted">
                propagated
              </th>
            ) : null}
            {params.callerFaults === 'exclude' ? (
              <th className="num" title="validation, not counted">
                caller faults
              </th>
            ) : null}
            <th
              className="num"
              title={`failures the SLO allows over ${params.periodDays} days at the stored traffic's rate, and the share of the period that traffic spans`}
            >
              allowed / period
            </th>
            <th className="num">range used</th>
            <th className="num">period used</th>
            <th className="num">exhausted in</th>
            <th
              className="num"
              title="the failure rate over the rate the SLO allows, over the range and each alert window ending now; above 1× the budget runs out before the period ends"
            >
              burn rate
            </th>
          </tr>
        </thead>
        <tbody>
          {budgets.map((b) => (
            <tr key={b.service} data-service={b.service}>
              <td>
                <span className="service-name">{b.service}</span>
                {firing.has(b.service) ? (
                  <>
                    {' '}
                    <Link href="/alerts" className="bad" data-testid="firing-mark">
                      ● {firing.get(b.service)} firing
                    </Link>
                  </>
                ) : null}
              </td>
              <td className="num" data-testid="budget-calls">
                {params.sli === 'calls' ? (
                  <Link
                    href={sqlConsoleHref('dashboard/budget_call_rows', params, { service: b.service })}
                    title="the rows these calls are counted from (exact where counted in process, else the stored spans' weights), in the SQL console"
                  >
                    {formatCount(b.total)}
                  </Link>
                ) : (
                  formatCount(b.total)
                )}
              </td>
              <CountedCell trust={trust.byService.get(b.service)} />
              <td className="num" data-testid="budget-failures">
                <FailureCount
                  params={countParams}
                  rows={{ service: b.service, counted: 'yes' }}
                  value={b.failures}
                />
              </td>
              <td data-testid="budget-by-class">
                {Object.entries(b.failuresByClass)
                  .sort((x, y) => y[1] - x[1])
                  .map(([cls, n]) => (
                    <span key={cls} className="budget-class" data-class={cls} data-count={n}>
                      <ClassBadge value={cls} />{' '}
                      <FailureCount
                        params={countParams}
                        rows={{ service: b.service, class: cls }}
                        value={n}
                      />
                    </span>
                  ))}
              </td>
              {params.sli === 'calls' ? (
                <td className="num" data-testid="budget-propagated">
                  {formatCount(b.propagated)}
                </td>
              ) : null}
              {params.callerFaults === 'exclude' ? (
                <td className="num" data-testid="budget-caller-faults">
                  <FailureCount
                    params={countParams}
                    rows={{ service: b.service, counted: 'no' }}
                    value={b.callerFaults}
                  />
                </td>
              ) : null}
              <td className="num" data-testid="budget-allowed">
                {allowedText(b.allowedInPeriod)}{' '}
                <span
                  className="muted budget-coverage"
                  data-testid="budget-coverage"
                  title={`the stored traffic spans ${formatPercent(b.periodCoverage, 3)} of the SLO period; the allowance extrapolates from it`}
                >
                  from {formatSeconds(b.periodCoverage * params.periodDays * 86_400)} of data
                </span>
              </td>
              <td className="num" data-testid="budget-used-range">
                {formatPercent(b.usedByRange, 2)}
              </td>
              <td data-testid="budget-used-period" className={b.usedInPeriod >= 1 ? 'bad num' : 'num'}>
                {formatPercent(b.usedInPeriod, 2)}
              </td>
              <td className="num" data-testid="budget-exhaustion">
                {b.exhaustionS === null
                  ? '—'
                  : b.exhaustionS === 0
                    ? 'exhausted'
                    : formatSeconds(b.exhaustionS)}
              </td>
              {/* Every window in one cell, two columns of label and rate: six columns of their own
                  pushed the longest windows out of a 1280 px window. */}
              <td className="num">
                <span className="burn-grid">
                  <BurnRate label="range" testId="budget-burn" value={b.burnRange} />
                  {BURN_WINDOWS.map((w) => (
                    <BurnRate
                      key={w.key}
                      label={w.key}
                      testId={`budget-burn-${w.key}`}
                      value={b.burn[w.key]}
                    />
                  ))}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted" data-testid="sampling-note">
        Under trace sampling each stored span counts for the traffic it stands for (1/p from its
        tracestate&apos;s <code>ot=th</code>); a failure the preload kept whatever the sampler said counts 1.
        {trust.unmarkedShare > 0
          ? ` ${formatPercent(trust.unmarkedShare, 1)} of the outbound calls of services not counted in process carried no sampling mark and count 1 each: right only if nothing dropped their siblings.`
          : ''}
        {trust.invalidMarks > 0
          ? ` ${formatCount(trust.invalidMarks)} spans had a malformed mark (counted 1).`
          : ''}
      </p>
      <p className="muted">
        The allowance extrapolates the stored traffic over the period, so figures change only when data does.
        Exhaustion assumes the last hour&apos;s failure rate continues; burn 1× spends the budget exactly over
        the period.
      </p>
    </section>
  );
}

/** One window's burn rate in the budget table's burn cell: its label, then the rate, red above 1×. */
function BurnRate({ label, testId, value }: { label: string; testId: string; value: number | null }) {
  return (
    <>
      <span className="muted burn-label">{label}</span>
      <span data-testid={testId} className={(value ?? 0) > 1 ? 'bad' : undefined}>
        {formatBurn(value)}
      </span>
    </>
  );
}

import { visibleText } from '@faultline/sql/format';
import Link from 'next/link';
import { Fragment } from 'react';
import { ClassBadge } from '../components/class-badge';
import { ServiceLink } from '../components/service-link';
import type { DashboardParams } from '../lib/dashboard-params';
import { formatCount, formatDurationNs, formatTime } from '../lib/format';
import { describeWorkflowFilters, needsMatchingList, type WorkflowFilters } from '../lib/workflow-selection';
import { displayZone } from '../server/display-zone';
import { loadMatchingTotal, loadMatchingWorkflows, loadRecentWorkflows } from '../server/workflow-data';

const LIST_LIMIT = 50;

/**
 * Newest workflows with steps and outcome, each linking to its request view, under the list's
 * filters; above them how many workflows those filters select, weighted as the page's figures are,
 * so a number that opens this list reads the same here.
 */
export async function DBRecentWorkflows({
  params,
  filters,
}: {
  params: DashboardParams;
  filters: WorkflowFilters;
}) {
  const [rows, total, zone] = await Promise.all([
    needsMatchingList(filters)
      ? loadMatchingWorkflows(params, filters, LIST_LIMIT)
      : loadRecentWorkflows(params, filters.outcome === 'failed', LIST_LIMIT),
    loadMatchingTotal(params, filters),
    displayZone(),
  ]);
  const selected = describeWorkflowFilters(filters);
  return (
    <>
      <p className="muted" data-testid="workflows-matching">
        <strong data-testid="workflows-matching-total">{formatCount(total.workflows)}</strong> workflows
        {selected ? ` ${selected}` : ''}
        {total.stored !== total.workflows
          ? ` (${formatCount(total.stored)} stored, each counted for the traffic it stands for under sampling)`
          : ''}
        {rows.length < total.stored ? `; the newest ${rows.length} listed` : ''}.
      </p>
      <table data-testid="recent-workflows">
        <thead>
          <tr>
            <th>correlation id</th>
            <th>started</th>
            <th className="num">duration</th>
            <th>services</th>
            <th className="num">steps</th>
            <th className="num">failed steps</th>
            <th className="num">retries</th>
            <th>outcome</th>
            <th>first failure</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((w) => (
            <tr key={w.correlationId}>
              <td>
                <Link href={`/request?id=${encodeURIComponent(w.correlationId)}`}>
                  <code>{visibleText(w.correlationId)}</code>
                </Link>
              </td>
              <td className="nowrap">{formatTime(w.started, zone)}</td>
              <td className="num">{formatDurationNs(w.durationNs)}</td>
              <td>
                {w.serviceIds.map((s, i) => (
                  <Fragment key={s}>
                    {i > 0 ? ', ' : null}
                    <ServiceLink params={params} service={s} />
                  </Fragment>
                ))}
              </td>
              <td className="num">{w.steps}</td>
              <td className="num">{w.failedSteps}</td>
              <td className="num">
                {w.retries}
                {w.misrouted > 0 ? <span className="bad"> ({w.misrouted} misrouted)</span> : null}
              </td>
              <td className={w.failed ? 'bad nowrap' : 'nowrap'}>{w.failed ? '✕ failed' : '✓ succeeded'}</td>
              <td>
                {w.firstFailureClass ? (
                  <>
                    <ClassBadge value={w.firstFailureClass} />{' '}
                    <ServiceLink params={params} service={w.firstFailureServiceId} /> {w.firstFailureSource}{' '}
                    <code>{w.firstFailureCode}</code>
                  </>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

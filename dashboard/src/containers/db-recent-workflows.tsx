import { visibleText } from '@faultline/sql/format';
import Link from 'next/link';
import { Fragment } from 'react';
import { ClassBadge } from '../components/class-badge';
import { ServiceLink } from '../components/service-link';
import type { DashboardParams } from '../lib/dashboard-params';
import { formatDurationNs, formatTime } from '../lib/format';
import { displayZone } from '../server/display-zone';
import { loadRecentWorkflows } from '../server/workflow-data';

/** Newest workflows with steps and outcome; each links to its request view. */
export async function DBRecentWorkflows({
  params,
  failedOnly,
}: {
  params: DashboardParams;
  failedOnly: boolean;
}) {
  const [rows, zone] = await Promise.all([loadRecentWorkflows(params, failedOnly), displayZone()]);
  return (
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
  );
}

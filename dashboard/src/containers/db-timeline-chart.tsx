import Link from 'next/link';
import { ClassLegend } from '../components/class-legend';
import { HdxTimelineChart, type TimelineBar } from '../components/hdx-timeline-chart';
import type { DashboardParams } from '../lib/dashboard-params';
import { FAILURE_CLASSES } from '../lib/failure-classes';
import { type FailureFilters, failuresHref, NO_FAILURE_FILTERS } from '../lib/failure-selection';
import { formatCount, formatTime } from '../lib/format';
import { loadDeployMarkers } from '../server/deploy-data';
import { displayZone } from '../server/display-zone';
import { loadTimeline, timelineQuery } from '../server/overview-data';
import { sqlConsoleHref } from '../server/sql-links';
import { DeployList, toChartDeploys } from './deploy-list';

/** Every bucket of the range, the empty ones too: the chart's time axis and its zoom need them all. */
function bucketsOf(p: DashboardParams): TimelineBar[] {
  const { fromS, toS, bucketS } = p.range;
  const out: TimelineBar[] = [];
  for (let t = Math.floor(fromS / bucketS) * bucketS; t < toS; t += bucketS) out.push({ t });
  return out;
}

/**
 * Failures over time stacked by class, with the range's deploys marked, its rows in a table and as
 * a named query. Under the Failures page's own filters it reads them too (narrowed_timeline), so
 * its bars add up to the groups' total.
 */
export async function DBTimelineChart({
  params,
  filters = NO_FAILURE_FILTERS,
}: {
  params: DashboardParams;
  filters?: FailureFilters;
}) {
  const [points, deploys, zone] = await Promise.all([
    loadTimeline(params, filters),
    loadDeployMarkers(params.range, params.service),
    displayZone(),
  ]);
  const byT = new Map(bucketsOf(params).map((b) => [b.t, b]));
  for (const p of points) {
    const bar = byT.get(p.t) ?? { t: p.t };
    bar[p.class] = (bar[p.class] ?? 0) + p.failures;
    byT.set(p.t, bar);
  }
  const bars = [...byT.values()].sort((a, b) => a.t - b.t);
  const withFailures = bars.filter((b) => FAILURE_CLASSES.some((c) => (b[c] ?? 0) > 0));
  const query = timelineQuery(params, filters);
  return (
    <section className="panel" aria-labelledby="timeline-title">
      <h2 id="timeline-title">
        First-hand failures over time{' '}
        <span className="muted">per {params.range.bucketS / 60} min, stacked by class; ▲ a deploy</span>
      </h2>
      <ClassLegend />
      {withFailures.length === 0 && deploys.length === 0 ? (
        <p className="muted">No failures in this range.</p>
      ) : (
        <HdxTimelineChart
          data={bars}
          bucketS={params.range.bucketS}
          zone={zone}
          deploys={toChartDeploys(deploys, zone)}
          deployServices={params.service === ''}
        />
      )}
      <DeployList deploys={deploys} zone={zone} />
      <details>
        <summary>Rows behind this chart</summary>
        <p>
          <Link href={sqlConsoleHref(`dashboard/${query.name}`, params, query.params)}>
            Open as a query in the SQL console
          </Link>
        </p>
        <table data-testid="timeline-rows">
          <thead>
            <tr>
              <th>bucket ({zone})</th>
              {FAILURE_CLASSES.map((c) => (
                <th key={c} className="num">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {withFailures.map((b) => (
              <tr key={b.t} data-t={b.t}>
                <td className="nowrap">{formatTime(b.t, zone)}</td>
                {FAILURE_CLASSES.map((c) => (
                  <td key={c} className="num" data-class={c} data-failures={b[c] ?? 0}>
                    {b[c] ? (
                      // The bucket's part inside the range: buckets start on the clock, the range may not.
                      <Link
                        href={failuresHref(params, {
                          class: c,
                          fromS: Math.max(b.t, params.range.fromS),
                          toS: Math.min(b.t + params.range.bucketS, params.range.toS),
                        })}
                      >
                        {formatCount(b[c] ?? 0)}
                      </Link>
                    ) : (
                      formatCount(0)
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  );
}

import Link from 'next/link';
import { ClassLegend } from '../components/class-legend';
import { HdxTimelineChart, type TimelineBar } from '../components/hdx-timeline-chart';
import type { DashboardParams } from '../lib/dashboard-params';
import { FAILURE_CLASSES } from '../lib/failure-classes';
import { failuresHref } from '../lib/failure-selection';
import { formatCount, formatTimeUtc } from '../lib/format';
import { loadTimeline } from '../server/overview-data';
import { sqlConsoleHref } from '../server/sql-links';

/** Failures over time stacked by class, with its rows in a table and as a named query. */
export async function DBTimelineChart({ params }: { params: DashboardParams }) {
  const points = await loadTimeline(params);
  const byT = new Map<number, TimelineBar>();
  for (const p of points) {
    const bar = byT.get(p.t) ?? { t: p.t };
    bar[p.class] = (bar[p.class] ?? 0) + p.failures;
    byT.set(p.t, bar);
  }
  const bars = [...byT.values()].sort((a, b) => a.t - b.t);
  return (
    <section className="panel" aria-labelledby="timeline-title">
      <h2 id="timeline-title">
        First-hand failures over time{' '}
        <span className="muted">per {params.range.bucketS / 60} min, stacked by class</span>
      </h2>
      <ClassLegend />
      {bars.length === 0 ? (
        <p className="muted">No failures in this range.</p>
      ) : (
        <HdxTimelineChart data={bars} />
      )}
      <details>
        <summary>Rows behind this chart</summary>
        <p>
          <Link
            href={sqlConsoleHref('dashboard/overview_timeline', params, { bucket: params.range.bucketS })}
          >
            Open as a query in the SQL console
          </Link>
        </p>
        <table data-testid="timeline-rows">
          <thead>
            <tr>
              <th>bucket (UTC)</th>
              {FAILURE_CLASSES.map((c) => (
                <th key={c} className="num">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {bars.map((b) => (
              <tr key={b.t}>
                <td className="nowrap">{formatTimeUtc(b.t)}</td>
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

import Link from 'next/link';
import { type BurnChartPoint, HdxBurnChart } from '../components/hdx-burn-chart';
import { formatTime } from '../lib/format';
import { isoParam } from '../lib/time-range';
import { BURN_CHART_HOURS, loadAlertConfig, loadAlertStates, loadBurnSeries } from '../server/alert-data';
import { loadDeployMarkers } from '../server/deploy-data';
import { displayZone } from '../server/display-zone';
import { toChartDeploys } from './deploy-list';

/** Charts at most this many services at once (the firing ones first). */
const MAX_CHARTS = 4;

/**
 * Each burning service's burn rate per window, against the burn rules' factors, its deploys marked:
 * the picture behind "14× over 1 h". The services are `?service=` when given, else those with a
 * burn-rate alert firing. The time axis is `?from=&to=` (a zoom), else the data's own: from its
 * first minute in the last BURN_CHART_HOURS to now.
 */
export async function DBBurnCharts({
  service,
  range,
}: {
  service: string | null;
  range: { fromS: number; toS: number } | null;
}) {
  const loaded = await loadAlertConfig();
  if (!loaded.config) return null;
  const config = loaded.config;
  const burnNames = new Set(config.burnRules.map((r) => r.alertname));
  const services = service
    ? [service]
    : [
        ...new Set(
          (await loadAlertStates())
            .filter((a) => a.state === 'firing' && burnNames.has(a.alertname))
            .map((a) => a.service),
        ),
      ].slice(0, MAX_CHARTS);
  const thresholds = [...new Map(config.burnRules.map((r) => [r.factor, r])).values()].map((r) => ({
    factor: r.factor,
    label: `${r.severity} ${r.factor}×`,
  }));
  const nowS = Math.floor(Date.now() / 1000);
  const zone = await displayZone();
  const charts = await Promise.all(
    services.map(async (s) => {
      const chart = await loadBurnSeries(s, config, range, nowS);
      const deploys = await loadDeployMarkers(
        { fromS: chart.fromS, toS: chart.toS, bucketS: chart.bucketS },
        s,
      );
      return { service: s, chart, deploys };
    }),
  );
  return (
    <section className="panel" aria-labelledby="burn-title">
      <h2 id="burn-title">
        Burn rate{' '}
        <span className="muted">
          {range
            ? `${formatTime(range.fromS, zone)} to ${formatTime(range.toS, zone)}`
            : `from the first data of the last ${BURN_CHART_HOURS} h to now`}
          ; drag across a chart to zoom
        </span>
        {range ? (
          <>
            {' '}
            <Link
              href={`/alerts${service ? `?${new URLSearchParams({ service })}` : ''}`}
              data-testid="burn-reset"
            >
              back to the data&apos;s own window
            </Link>
          </>
        ) : null}
      </h2>
      {charts.length === 0 && (
        <p className="muted">
          No burn-rate alert is firing. Add <code>?service=</code> to the address to chart one service.
        </p>
      )}
      {charts.map(({ service: s, chart, deploys }) => {
        const data: BurnChartPoint[] = chart.points.map((p) => ({ t: p.startS, ...p.rolling }));
        const peak = Math.max(0, ...chart.points.flatMap((p) => chart.windows.map((w) => p.rolling[w] ?? 0)));
        return (
          <figure
            key={s}
            data-testid="burn-chart"
            data-service={s}
            data-peak-burn={peak.toFixed(1)}
            aria-label={`${s}: error-budget burn rate over ${chart.windows.join(' and ')}, peak ${peak.toFixed(1)}×`}
          >
            <figcaption>
              <Link
                href={`/?${new URLSearchParams({ service: s, from: isoParam(chart.fromS), to: isoParam(chart.toS), sli: 'calls' })}`}
              >
                {s}
              </Link>
              : peak {peak.toFixed(1)}× (dashed: the rules&apos; factors; ▲ a deploy)
            </figcaption>
            <HdxBurnChart
              data={data}
              windows={chart.windows}
              thresholds={thresholds}
              fromS={chart.fromS}
              toS={chart.toS}
              bucketS={chart.bucketS}
              zone={zone}
              deploys={toChartDeploys(deploys, zone)}
            />
          </figure>
        );
      })}
    </section>
  );
}

import Link from 'next/link';
import { type BurnChartPoint, HdxBurnChart } from '../components/hdx-burn-chart';
import {
  BURN_CHART_HOURS,
  BURN_CHART_WINDOWS,
  loadAlertConfig,
  loadAlertStates,
  loadBurnSeries,
} from '../server/alert-data';

/** Charts at most this many services at once (the firing ones first). */
const MAX_CHARTS = 4;

/**
 * Each burning service's burn rate over the last hours, per window, against the burn rules'
 * factors: the picture behind "14× over 1 h". The services are `?service=` when given, else
 * those with a burn-rate alert firing.
 */
export async function DBBurnCharts({ service }: { service: string | null }) {
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
  const windows = Object.keys(BURN_CHART_WINDOWS);
  const thresholds = [...new Map(config.burnRules.map((r) => [r.factor, r])).values()].map((r) => ({
    factor: r.factor,
    label: `${r.severity} ${r.factor}×`,
  }));
  const nowS = Math.floor(Date.now() / 1000);
  const charts = await Promise.all(
    services.map(async (s) => ({ service: s, points: await loadBurnSeries(s, config, nowS) })),
  );
  return (
    <section className="panel" aria-labelledby="burn-title">
      <h2 id="burn-title">Burn rate, last {BURN_CHART_HOURS} h</h2>
      {charts.length === 0 && (
        <p className="muted">
          No burn-rate alert is firing. Add <code>?service=</code> to the address to chart one service.
        </p>
      )}
      {charts.map(({ service: s, points }) => {
        const data: BurnChartPoint[] = points.map((p) => ({ t: p.startS, ...p.rolling }));
        const peak = Math.max(0, ...points.flatMap((p) => windows.map((w) => p.rolling[w] ?? 0)));
        return (
          <figure
            key={s}
            data-testid="burn-chart"
            data-service={s}
            data-peak-burn={peak.toFixed(1)}
            aria-label={`${s}: error-budget burn rate over ${windows.join(' and ')}, peak ${peak.toFixed(1)}×`}
          >
            <figcaption>
              <Link href={`/?${new URLSearchParams({ service: s, range: '6h', sli: 'calls' })}`}>{s}</Link>:
              peak {peak.toFixed(1)}× (dashed: the rules&apos; factors)
            </figcaption>
            <HdxBurnChart data={data} windows={windows} thresholds={thresholds} />
          </figure>
        );
      })}
    </section>
  );
}

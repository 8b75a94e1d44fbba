import { visibleText } from '@faultline/sql/format';
import type { ChartDeploy } from '../components/deploy-marker-lines';
import { type DeployMarker, deployAnchor } from '../lib/deploy-markers';
import { formatTime } from '../lib/format';
import { MAX_CHART_MARKERS } from '../server/deploy-data';

/** The deploys a chart marks: the newest MAX_CHART_MARKERS, each titled in the reader's zone. */
export function toChartDeploys(deploys: readonly DeployMarker[], zone: string): ChartDeploy[] {
  return deploys.slice(-MAX_CHART_MARKERS).map((d) => ({
    service: d.service,
    version: d.version,
    atS: d.atMs / 1000,
    title: `${d.service} ${d.version} at ${formatTime(Math.floor(d.atMs / 1000), zone)}${
      d.previous.length > 0 ? `, after ${d.previous.join(', ')}` : ''
    }`,
  }));
}

/**
 * The deploys under a chart, one row each with an anchor: a failure group's "new in this release"
 * link lands here, on the Failures page whose range starts at the deploy.
 */
export function DeployList({ deploys, zone }: { deploys: readonly DeployMarker[]; zone: string }) {
  if (deploys.length === 0) return null;
  // One anchor per service and version, on its newest deploy (a rollback deploys a version again).
  const anchored = new Set<number>();
  const seen = new Set<string>();
  for (let i = deploys.length - 1; i >= 0; i--) {
    const id = deployAnchor(deploys[i]!.service, deploys[i]!.version);
    if (!seen.has(id)) anchored.add(i);
    seen.add(id);
  }
  return (
    <details className="deploys" data-testid="deploys">
      <summary>
        {deploys.length} {deploys.length === 1 ? 'deploy' : 'deploys'} in this range (a new{' '}
        <code>service.version</code> in the spans)
        {deploys.length > MAX_CHART_MARKERS ? `; the newest ${MAX_CHART_MARKERS} marked` : ''}
      </summary>
      <table>
        <thead>
          <tr>
            <th>at ({zone})</th>
            <th>service</th>
            <th>version</th>
            <th>before</th>
          </tr>
        </thead>
        <tbody>
          {deploys.map((d, i) => (
            <tr
              key={`${d.service}\u0000${d.version}\u0000${d.atMs}`}
              id={anchored.has(i) ? deployAnchor(d.service, d.version) : undefined}
              data-testid="deploy"
              data-service={d.service}
              data-version={d.version}
              data-at-ms={d.atMs}
            >
              <td className="nowrap">{formatTime(Math.floor(d.atMs / 1000), zone)}</td>
              <td>{visibleText(d.service)}</td>
              <td>
                <code>{visibleText(d.version)}</code>
              </td>
              <td className="muted">{d.previous.map(visibleText).join(', ') || '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

import { LiveRefresh } from '../../src/components/live-refresh';
import { ParamError } from '../../src/components/param-error';
import { DBAlertRules } from '../../src/containers/db-alert-rules';
import { DBAlertHistory, DBFiringAlerts } from '../../src/containers/db-alerts';
import { DBBurnCharts } from '../../src/containers/db-burn-charts';
import { DBServiceVerdicts } from '../../src/containers/db-service-verdicts';
import { DBSilences } from '../../src/containers/db-silences';
import { DBStaleAlerts } from '../../src/containers/db-stale-alerts';
import { StaleNotes } from '../../src/containers/stale-notes';
import type { SearchParams } from '../../src/lib/dashboard-params';
import { parseTimeRange } from '../../src/lib/time-range';
import { single } from '../../src/lib/url-values';
import { displayZone } from '../../src/server/display-zone';

export const dynamic = 'force-dynamic';

export default async function AlertsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  const service = single(sp, 'service')?.trim().slice(0, 256) || null;
  // A zoom on a burn chart puts absolute from/to here; without them each chart follows its data.
  let range: { fromS: number; toS: number } | null = null;
  try {
    const from = single(sp, 'from');
    if (from !== undefined) range = parseTimeRange({ from, to: single(sp, 'to') });
  } catch (err) {
    return (
      <>
        <h1>Alerts</h1>
        <ParamError message={err instanceof Error ? err.message : String(err)} />
      </>
    );
  }
  return (
    <>
      <div className="page-head">
        <h1>Alerts</h1>
        <LiveRefresh renderedAt={Date.now()} zone={await displayZone()} />
      </div>
      <StaleNotes />
      <DBFiringAlerts />
      <DBStaleAlerts />
      <DBSilences />
      <DBServiceVerdicts />
      <DBBurnCharts service={service} range={range} />
      <DBAlertRules />
      <DBAlertHistory />
    </>
  );
}

import { DBAlertRules } from '../../src/containers/db-alert-rules';
import { DBAlertHistory, DBFiringAlerts } from '../../src/containers/db-alerts';
import { DBBurnCharts } from '../../src/containers/db-burn-charts';
import type { SearchParams } from '../../src/lib/dashboard-params';

export const dynamic = 'force-dynamic';

export default async function AlertsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const raw = (await searchParams).service;
  const service = (Array.isArray(raw) ? raw[0] : raw)?.trim().slice(0, 256) || null;
  return (
    <>
      <h1>Alerts</h1>
      <DBFiringAlerts />
      <DBBurnCharts service={service} />
      <DBAlertRules />
      <DBAlertHistory />
    </>
  );
}

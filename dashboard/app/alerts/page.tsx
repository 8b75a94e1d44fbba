import { DBAlertHistory, DBAlertRules, DBFiringAlerts } from '../../src/containers/db-alerts';

export const dynamic = 'force-dynamic';

export default async function AlertsPage() {
  return (
    <>
      <h1>Alerts</h1>
      <DBFiringAlerts />
      <DBAlertRules />
      <DBAlertHistory />
    </>
  );
}

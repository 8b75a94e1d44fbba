import Link from 'next/link';
import { ClassBadge } from '../components/class-badge';
import { loadAlertStates } from '../server/alert-data';
import { displayZone } from '../server/display-zone';
import { loadStaleServices } from '../server/stale-services';
import { alertTime, overviewHref } from './db-alerts';

/**
 * Alerts whose service stopped sending (state `stale`): resolved at the receivers with "no data
 * since …" instead of firing on the data it sent before it stopped. Nothing when there is none.
 */
export async function DBStaleAlerts() {
  const [states, stopped, zone] = await Promise.all([loadAlertStates(), loadStaleServices(), displayZone()]);
  const stale = states.filter((s) => s.state === 'stale');
  const lastSeen = new Map(stopped.map((s) => [s.service, s.lastSeenS]));
  if (stale.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="stale-title">
      <h2 id="stale-title">
        Stale <span className="muted">the service stopped sending: resolved with its reason, not firing</span>
      </h2>
      <table data-testid="stale-alerts">
        <thead>
          <tr>
            <th>alert</th>
            <th>service</th>
            <th>severity</th>
            <th>class</th>
            <th>fired</th>
            <th>stale since</th>
            <th>reason</th>
          </tr>
        </thead>
        <tbody>
          {stale.map((a) => {
            const seen = lastSeen.get(a.service);
            return (
              <tr key={a.key} data-testid="stale-alert" data-service={a.service} data-severity={a.severity}>
                <td>{a.alertname}</td>
                <td>
                  <Link className="service-name" href={overviewHref(a.service, a.startedMs, a.atMs)}>
                    {a.service}
                  </Link>
                </td>
                <td>{a.severity}</td>
                <td>
                  <ClassBadge value={a.class} />
                </td>
                <td className="nowrap">{alertTime(a.startedMs, zone)}</td>
                <td className="nowrap">{alertTime(a.atMs, zone)}</td>
                <td className="bad">
                  {seen === undefined ? 'no data' : `no data since ${alertTime(seen * 1000, zone)}`}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

import type { Silence } from '@faultline/collector';
import Link from 'next/link';
import { ClassBadge } from '../components/class-badge';
import { formatTime } from '../lib/format';
import {
  ALERT_HISTORY_ROWS,
  loadAlertDeliveries,
  loadAlertHistory,
  loadAlertStates,
} from '../server/alert-data';
import { collectorModule } from '../server/collector-module';
import { displayZone } from '../server/display-zone';
import { listSilences } from '../server/silences';

export const alertTime = (ms: number, zone: string) => formatTime(Math.floor(ms / 1000), zone);

/** The Overview for one service over an alert's time: from when it started to now (or its end). */
export function overviewHref(service: string, fromMs: number, toMs: number): string {
  const q = new URLSearchParams({
    service,
    from: String(Math.floor(fromMs / 1000) - 3600),
    to: String(Math.ceil(toMs / 1000) + 60),
    sli: 'calls',
  });
  return `/?${q.toString()}`;
}

function SilencedCell({ silence, zone }: { silence: Silence | undefined; zone: string }) {
  if (!silence) return <td className="muted">—</td>;
  return (
    <td className="silence-active" data-testid="alert-silenced" title={silence.reason}>
      until {alertTime(silence.endsAtMs, zone)} by {silence.author}
    </td>
  );
}

/**
 * Alerts firing now, each marked with the silence that keeps it from the webhook: each alert's
 * latest transition, as the evaluator itself reads it.
 */
export async function DBFiringAlerts() {
  const [states, zone, silences, { silenceMatches }] = await Promise.all([
    loadAlertStates(),
    displayZone(),
    listSilences().catch(() => []),
    collectorModule(),
  ]);
  const active = silences.filter((s) => s.status === 'active');
  // The silence that keeps a firing alert from the webhook, as delivery decides it (silenceMatches).
  const silencedBy = (a: { service: string; class: string; alertname: string }) =>
    active.find((s) => silenceMatches(s, a));
  const firing = states.filter((s) => s.state === 'firing');
  return (
    <section className="panel" aria-labelledby="firing-title">
      <h2 id="firing-title">Firing now</h2>
      {firing.length === 0 ? (
        <p className="muted" data-testid="no-firing">
          No alert is firing.
        </p>
      ) : (
        <table data-testid="firing-alerts">
          <thead>
            <tr>
              <th>alert</th>
              <th>service</th>
              <th>severity</th>
              <th>burning class</th>
              <th>since</th>
              <th>silenced</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {firing.map((a) => (
              <tr key={a.key} data-testid="firing-alert" data-service={a.service} data-severity={a.severity}>
                <td>{a.alertname}</td>
                <td className="service-name">{a.service}</td>
                <td>{a.severity}</td>
                <td>
                  <ClassBadge value={a.class} />
                </td>
                <td className="nowrap">{alertTime(a.startedMs, zone)}</td>
                <SilencedCell silence={silencedBy(a)} zone={zone} />
                <td>
                  <Link href={overviewHref(a.service, a.startedMs, Date.now())}>Overview at this time</Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** Fired and resolved transitions, newest first, and what each receiver answered. */
export async function DBAlertHistory() {
  const [history, deliveries, zone] = await Promise.all([
    loadAlertHistory(),
    loadAlertDeliveries(),
    displayZone(),
  ]);
  const failing = deliveries.filter((d) => !d.ok);
  return (
    <>
      <section className="panel" aria-labelledby="history-title">
        <h2 id="history-title">History (latest {ALERT_HISTORY_ROWS})</h2>
        {history.length === 0 ? (
          <p className="muted">No alert has fired yet.</p>
        ) : (
          <table data-testid="alert-history">
            <thead>
              <tr>
                <th>at</th>
                <th>service</th>
                <th>severity</th>
                <th>class</th>
                <th>state</th>
                <th className="num">burn (long / short)</th>
                <th>summary</th>
              </tr>
            </thead>
            <tbody>
              {history.map((h) => (
                <tr key={`${h.key}-${h.atMs}-${h.state}`} data-testid="alert-transition" data-state={h.state}>
                  <td className="nowrap">{alertTime(h.atMs, zone)}</td>
                  <td>
                    <Link className="service-name" href={overviewHref(h.service, h.startedMs, h.atMs)}>
                      {h.service}
                    </Link>
                  </td>
                  <td>{h.severity}</td>
                  <td>
                    <ClassBadge value={h.class} />
                  </td>
                  <td>{h.state}</td>
                  <td className="num">
                    {h.burnLong.toFixed(1)}× / {h.burnShort.toFixed(1)}×
                  </td>
                  <td className="message">{h.summary}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section className="panel" aria-labelledby="deliveries-title">
        <h2 id="deliveries-title">Deliveries</h2>
        {failing.length > 0 && (
          <p className="bad" data-testid="failing-receivers">
            Failing receivers: {[...new Set(failing.map((d) => d.receiver))].join(', ')} (latest error:{' '}
            {failing[0]!.error || failing[0]!.status})
          </p>
        )}
        {deliveries.length === 0 ? (
          <p className="muted">
            Nothing delivered yet (FAULTLINE_ALERTMANAGER_URL, FAULTLINE_ALERT_WEBHOOK_URL).
          </p>
        ) : (
          <table data-testid="alert-deliveries">
            <thead>
              <tr>
                <th>at</th>
                <th>receiver</th>
                <th>transition</th>
                <th>result</th>
                <th className="num">attempts</th>
                <th>error</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((d) => (
                <tr key={`${d.key}-${d.atMs}-${d.receiver}`} data-ok={String(d.ok)}>
                  <td className="nowrap">{alertTime(d.atMs, zone)}</td>
                  <td>{d.receiver}</td>
                  <td>{d.state}</td>
                  <td className={d.ok ? undefined : 'bad'}>
                    {d.state === 'silenced'
                      ? 'withheld (silenced)'
                      : d.ok
                        ? 'delivered'
                        : `failed ${d.status}`}
                  </td>
                  <td className="num">{d.attempts}</td>
                  <td className="message">{d.error}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}

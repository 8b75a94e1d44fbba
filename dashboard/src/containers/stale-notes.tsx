import { visibleText } from '@faultline/sql/format';
import Link from 'next/link';
import { formatTime } from '../lib/format';
import { displayZone } from '../server/display-zone';
import { loadStaleServices } from '../server/stale-services';

/** Notes beyond this many are one line: a fleet shut down for the night is one fact. */
const MAX_NOTES = 5;

function ago(seconds: number): string {
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 2 * 86_400) return `${Math.round(seconds / 3600)} h ago`;
  return `${Math.round(seconds / 86_400)} d ago`;
}

/**
 * "no data since …" for each service that stopped sending (every page shows it), or only for the
 * page's service when it is filtered to one: its panels would otherwise read as a quiet, healthy
 * service, and its alerts as over.
 */
export async function StaleNotes({ service = '' }: { service?: string }) {
  const [all, zone] = await Promise.all([loadStaleServices(), displayZone()]);
  const stale = service ? all.filter((s) => s.service === service) : all;
  if (stale.length === 0) return null;
  const nowS = Math.floor(Date.now() / 1000);
  return (
    <div className="stale-notes" role="status">
      {stale.slice(0, MAX_NOTES).map((s) => (
        <p
          key={s.service}
          className="stale-note"
          data-testid="stale-service"
          data-service={s.service}
          data-last-seen={s.lastSeenS}
        >
          <strong>{visibleText(s.service)}</strong>: no data since{' '}
          <time dateTime={new Date(s.lastSeenS * 1000).toISOString()}>{formatTime(s.lastSeenS, zone)}</time> (
          {ago(nowS - s.lastSeenS)}). Its panels show what it sent before it stopped; an alert on it is{' '}
          <Link href="/alerts#stale-title">stale</Link>, not firing.
        </p>
      ))}
      {stale.length > MAX_NOTES ? (
        <p className="stale-note">
          and {stale.length - MAX_NOTES} more services without data: see <Link href="/alerts">Alerts</Link>.
        </p>
      ) : null}
    </div>
  );
}

import type { ServiceVerdict } from '@faultline/collector';
import { visibleText } from '@faultline/sql/format';
import Link from 'next/link';
import { formatCount, formatTime } from '../lib/format';
import { loadAlertConfig } from '../server/alert-data';
import { displayZone } from '../server/display-zone';
import { loadServiceVerdicts } from '../server/service-verdicts';

const RULE_TEXT: Record<ServiceVerdict['rules'][number]['verdict'], string> = {
  burning: 'burning',
  ok: 'ok',
  insufficient_traffic: 'not enough traffic',
  stale: 'stale',
};

/**
 * Each service as the evaluator judges it now: per burn window its burn rate, or "not enough
 * traffic to judge" where the window holds fewer events than the minimum (a ratio of a handful is
 * noise: collector/README.md, thin evidence); per rule its verdict; and a service that stopped
 * sending, with when.
 */
export async function DBServiceVerdicts() {
  const [loaded, verdicts, zone] = await Promise.all([
    loadAlertConfig(),
    loadServiceVerdicts(),
    displayZone(),
  ]);
  if (!loaded.config || !verdicts) return null;
  const services = verdicts;
  const windows = services.find((s) => s.windows.length > 0)?.windows.map((w) => w.window) ?? [];
  const rules = loaded.config.burnRules;
  return (
    <section className="panel" aria-labelledby="verdicts-title">
      <h2 id="verdicts-title">
        Services as the alerts judge them{' '}
        <span className="muted">
          burn rate per window; a window with fewer than {formatCount(loaded.config.minEvents)} events
          (FAULTLINE_ALERT_MIN_EVENTS) is not judged
        </span>
      </h2>
      {services.length === 0 ? (
        <p className="muted">No service has sent calls in the last 3 days.</p>
      ) : (
        <table data-testid="service-verdicts">
          <thead>
            <tr>
              <th>service</th>
              <th>last data ({zone})</th>
              {windows.map((w) => (
                <th key={w} className="num">
                  {w}
                </th>
              ))}
              <th>rules</th>
            </tr>
          </thead>
          <tbody>
            {services.map((s) => (
              <tr
                key={s.service}
                data-testid="service-verdict"
                data-service={s.service}
                data-stale={String(s.stale)}
              >
                <td>
                  <Link href={`/alerts?${new URLSearchParams({ service: s.service })}`}>
                    {visibleText(s.service)}
                  </Link>
                </td>
                <td className={s.stale ? 'bad last-data' : undefined} data-testid="last-data">
                  {s.lastSeenS === null ? (
                    '—'
                  ) : (
                    <>
                      {s.stale ? 'no data since ' : null}
                      <DateThenTime text={formatTime(s.lastSeenS, zone)} />
                    </>
                  )}
                </td>
                {windows.map((key) => {
                  const w = s.windows.find((x) => x.window === key);
                  if (!w) return <td key={key} className="muted num" />;
                  return (
                    <td
                      key={key}
                      className="num"
                      data-testid="window-verdict"
                      data-window={w.window}
                      data-verdict={w.verdict}
                      data-events={w.events}
                      data-burn={w.burn ?? ''}
                      title={`${formatCount(w.events)} events, ${formatCount(w.failures)} counted failures`}
                    >
                      {w.verdict === 'insufficient_traffic' ? (
                        <>
                          {/* Two unbreakable halves: it wraps, if at all, between them. */}
                          <span className="verdict-thin">
                            <span className="nowrap">not enough traffic</span>{' '}
                            <span className="nowrap">to judge</span>
                          </span>
                          <span className="muted stacked">
                            {formatCount(w.events)} of {formatCount(s.minEvents)} events
                          </span>
                        </>
                      ) : (
                        <>
                          {(w.burn ?? 0).toFixed(1)}×
                          <span className="muted stacked">{formatCount(w.events)} events</span>
                        </>
                      )}
                    </td>
                  );
                })}
                <td>
                  {s.rules.map((r) => (
                    <span
                      key={`${r.alertname}-${r.severity}-${r.long}-${r.short}`}
                      className={`stacked nowrap${r.verdict === 'burning' ? ' bad' : r.verdict === 'ok' ? '' : ' muted'}`}
                      data-testid="rule-verdict"
                      data-verdict={r.verdict}
                    >
                      {r.severity} {r.long}/{r.short}: {RULE_TEXT[r.verdict]}
                    </span>
                  ))}
                  {s.rules.length === 0 && rules.length > 0 ? (
                    <span className="muted">no calls of its own</span>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/**
 * A time as the date, then the time of day: each unbroken, the line free to break between them, so
 * the table's six windows and its rules fit a 1280 px window.
 */
function DateThenTime({ text }: { text: string }) {
  const cut = text.indexOf(' ');
  if (cut < 0) return <span className="nowrap">{text}</span>;
  return (
    <>
      <span className="nowrap">{text.slice(0, cut)}</span>{' '}
      <span className="nowrap">{text.slice(cut + 1)}</span>
    </>
  );
}

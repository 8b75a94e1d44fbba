import { formatTimeNs } from '../lib/format-time-ns';
import type { RequestLogRecord } from '../server/request-logs-data';
import { ClassBadge } from './class-badge';

/** SeverityNumber ERROR (logs data model): at or above it a record reads as an error. */
const SEVERITY_ERROR = 17;

/** What a record says: its exception (type and message) when it carries one, else its body. */
function recordText(r: RequestLogRecord): string {
  if (r.exceptionType || r.exceptionMessage)
    return [r.exceptionType, r.exceptionMessage].filter((t) => t !== '').join(': ');
  return r.body;
}

/**
 * Log records under the span they were logged in (or of the request with no span shown): time,
 * severity, the exception's type and message (else the body), and the class when the record shows a
 * failure. Not tree items: they are the span's detail, as its envelope is.
 */
export function SpanLogRecords({ records, label }: { records: RequestLogRecord[]; label: string }) {
  return (
    <ul className="span-logs" aria-label={label} data-testid="span-logs">
      {records.map((r, i) => (
        <li
          // biome-ignore lint/suspicious/noArrayIndexKey: records carry no id; the list never reorders
          key={`${r.timeNs}-${i}`}
          className="span-log"
          data-testid="span-log"
          data-severity={r.severityText}
          data-class={r.class || undefined}
        >
          <span className="muted nowrap" title="record time (UTC)">
            {formatTimeNs(r.timeNs).slice(11)}
          </span>{' '}
          <strong className={r.severityNumber >= SEVERITY_ERROR ? 'bad' : 'muted'}>
            {r.severityText || `severity ${r.severityNumber}`}
          </strong>{' '}
          <span className="span-log-text" data-testid="span-log-text">
            {recordText(r)}
          </span>
          {r.class ? (
            <>
              {' '}
              <ClassBadge value={r.class} /> <code>{r.code}</code>
            </>
          ) : null}
          {r.exceptionType || r.exceptionMessage ? (
            r.body ? (
              <span className="muted stacked" data-testid="span-log-body">
                {r.body}
              </span>
            ) : null
          ) : null}
        </li>
      ))}
    </ul>
  );
}

import { classStyle } from '../lib/failure-classes';
import { formatDurationNs } from '../lib/format';
import { REQUEST_MAX_SPANS, type RequestSpan, SHOWN_TEXT_CHARS } from '../server/request-data';
import { ClassBadge } from './class-badge';

function prettyRaw(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

/** The SQL console with the span_detail query for one span: its texts uncut. */
function fullValueHref(s: RequestSpan): string {
  const q = new URLSearchParams({ query: 'span_detail', 'p.trace_id': s.traceId, 'p.span_id': s.spanId });
  return `/sql?${q.toString()}`;
}

/** Says a text was cut, with its full length and where the whole of it is. */
function CutNote({ span, length }: { span: RequestSpan; length: number }) {
  if (length <= SHOWN_TEXT_CHARS) return null;
  return (
    <span className="muted" data-testid="cut-note">
      {' '}
      … ({SHOWN_TEXT_CHARS.toLocaleString('en-US')} of {length.toLocaleString('en-US')} characters shown;{' '}
      <a href={fullValueHref(span)}>full value</a>)
    </span>
  );
}

/** Every span of one request on one time axis; failed spans carry their envelope and raw detail. */
export function SpanTimeline({ spans: all }: { spans: RequestSpan[] }) {
  // A page stays bounded whatever one request holds: the first REQUEST_MAX_SPANS, and a note.
  const spans = all.slice(0, REQUEST_MAX_SPANS);
  const start = Math.min(...spans.map((s) => s.startNs));
  const end = Math.max(...spans.map((s) => s.startNs + s.durationNs));
  const total = Math.max(1, end - start);
  return (
    <div data-testid="span-timeline">
      <p className="muted">
        {spans.length} spans across {new Set(spans.map((s) => s.service)).size} services over{' '}
        {formatDurationNs(end - start)}
        {all.length > REQUEST_MAX_SPANS && (
          <span data-testid="spans-capped">
            {' '}
            — more than {REQUEST_MAX_SPANS} spans: the first {REQUEST_MAX_SPANS} are shown (all of them: the
            request_timeline query in the SQL console)
          </span>
        )}
      </p>
      {spans.map((s) => {
        const left = ((s.startNs - start) / total) * 100;
        const width = (s.durationNs / total) * 100;
        const style = s.envelope ? classStyle(s.envelope.class) : null;
        return (
          <div key={s.spanId} className="span-block" data-testid="span-row" data-span-id={s.spanId}>
            <div className="timeline-row">
              <div>
                <strong>{s.service}</strong> <span className="muted">{s.kind}</span> {s.span}
                {s.attempt > 1 ? <span className="muted"> · attempt {s.attempt}</span> : null}
                {s.misroutedRetry ? <span className="bad"> · misrouted retry</span> : null}
              </div>
              <div className="timeline-track">
                <div
                  className={`timeline-bar${s.status === 'Error' ? ' error' : ''}`}
                  style={{
                    left: `${left}%`,
                    width: `${width}%`,
                    background: style ? `url(#${style.patternId}), ${style.color}` : undefined,
                  }}
                >
                  {style ? (
                    <svg width="100%" height="12" aria-hidden="true" style={{ display: 'block' }}>
                      <rect width="100%" height="12" fill={`url(#${style.patternId})`} />
                    </svg>
                  ) : null}
                </div>
              </div>
              <div className="nowrap">{formatDurationNs(s.durationNs)}</div>
            </div>
            {s.envelope ? (
              <details className="envelope" data-testid="envelope">
                <summary>
                  <ClassBadge value={s.envelope.class} /> {s.envelope.source} <code>{s.envelope.code}</code>{' '}
                  {s.envelope.message}
                  <CutNote span={s} length={s.messageLength} />
                </summary>
                <pre>{JSON.stringify(s.envelope, null, 2)}</pre>
                {s.raw ? (
                  <>
                    <p className="muted">
                      raw (redacted before storage)
                      <CutNote span={s} length={s.rawLength} />
                    </p>
                    <pre>{prettyRaw(s.raw)}</pre>
                  </>
                ) : null}
              </details>
            ) : null}
          </div>
        );
      })}
    </div>
  );
}

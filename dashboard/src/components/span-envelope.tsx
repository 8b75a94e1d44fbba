import { type RequestSpan, SHOWN_TEXT_CHARS } from '../server/request-data';
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

/** A failed span's envelope, expandable to its fields and redacted raw detail. */
export function SpanEnvelope({ span: s }: { span: RequestSpan }) {
  if (!s.envelope) return null;
  return (
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
  );
}

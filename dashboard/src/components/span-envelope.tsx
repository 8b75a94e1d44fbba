import { spanDetailHref } from '../lib/request-href';
import { type RequestSpan, SHOWN_TEXT_CHARS } from '../server/request-data';
import { ClassBadge } from './class-badge';

function prettyRaw(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

/** Says a text was cut, with its full length and where the whole of it is. */
function CutNote({ span, length }: { span: RequestSpan; length: number }) {
  if (length <= SHOWN_TEXT_CHARS) return null;
  return (
    <span className="muted" data-testid="cut-note">
      {' '}
      … ({SHOWN_TEXT_CHARS.toLocaleString('en-US')} of {length.toLocaleString('en-US')} characters shown;{' '}
      <a href={spanDetailHref(span.traceId, span.spanId)}>full value</a>)
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

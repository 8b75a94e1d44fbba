import { visibleText } from '@faultline/sql/format';
import Link from 'next/link';
import { formatDurationNs } from '../lib/format';
import { formatTimeNs } from '../lib/format-time-ns';
import { requestHref, spanDetailHref } from '../lib/request-href';
import type { ShownValue } from '../lib/shown-value';
import { type RequestSpan, SHOWN_TEXT_CHARS } from '../server/request-data';
import type { SpanPanelData, SpanPanelEvent } from '../server/span-panel-data';
import { ClassBadge } from './class-badge';

export interface SpanPanelProps {
  /** The id the page was opened with (links keep it, so the tree stays the same request). */
  requestId: string;
  span: RequestSpan;
  /** Null when the span's row could not be read again (it expired between the two reads). */
  data: SpanPanelData | null;
  /** Time this span itself accounts for on the critical path, or null when it is not on it. */
  criticalNs: number | null;
  /** For a propagated failure: the deeper first-hand failure it echoes, when it is in the tree. */
  echoes: RequestSpan | null;
  /** Whether the parent is in the tree (then its id selects it). */
  parentShown: boolean;
  /** Element id of a span's treeitem, by span id. */
  anchorOf: (spanId: string) => string | undefined;
}

const EXCEPTION_KEYS = ['exception.type', 'exception.message', 'exception.stacktrace'];

function Cut({ span, value }: { span: RequestSpan; value: { cut: boolean; length: number } }) {
  if (!value.cut) return null;
  return (
    <span className="muted" data-testid="cut-note">
      {' '}
      … ({SHOWN_TEXT_CHARS.toLocaleString('en-US')} of {value.length.toLocaleString('en-US')} characters
      shown; <a href={spanDetailHref(span.traceId, span.spanId)}>full value</a>)
    </span>
  );
}

function Values({
  span,
  list,
  count,
  testId,
  what,
}: {
  span: RequestSpan;
  list: ShownValue[];
  count: number;
  testId: string;
  what: string;
}) {
  if (list.length === 0) return <p className="muted">No {what}.</p>;
  return (
    <>
      <table className="span-values" data-testid={testId}>
        <tbody>
          {list.map((a, i) => (
            // Keys repeat only when cut to the same 200 characters: the index keeps them apart.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <tr key={`${a.key}-${i}`} data-key={a.key}>
              <th scope="row">
                <code>{a.key}</code>
              </th>
              <td>
                <span className="span-value">{a.value}</span>
                <Cut span={span} value={a} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {count > list.length ? (
        <p className="muted">
          {list.length} of {count} {what} shown (all of them:{' '}
          <a href={spanDetailHref(span.traceId, span.spanId)}>span_detail</a>)
        </p>
      ) : null}
    </>
  );
}

function EventItem({ span, event }: { span: RequestSpan; event: SpanPanelEvent }) {
  const isException = event.name === 'exception';
  const byKey = new Map(event.attributes.map((a) => [a.key, a]));
  const rest = isException
    ? event.attributes.filter((a) => !EXCEPTION_KEYS.includes(a.key))
    : event.attributes;
  const stack = byKey.get('exception.stacktrace');
  return (
    <li data-testid="span-event" data-event-name={event.name}>
      <strong>{event.name}</strong>{' '}
      <span className="muted">
        +{formatDurationNs(Math.max(0, event.offsetNs))} · <time>{formatTimeNs(event.timeNs)}</time>
      </span>
      {isException ? (
        <div className="exception" data-testid="span-exception">
          <code>{byKey.get('exception.type')?.value ?? '(no type)'}</code>:{' '}
          {byKey.get('exception.message')?.value ?? ''}
          {stack ? (
            <>
              <pre data-testid="span-stacktrace">{stack.value}</pre>
              <Cut span={span} value={stack} />
            </>
          ) : null}
        </div>
      ) : null}
      {rest.length > 0 ? (
        <Values
          span={span}
          list={rest}
          count={event.attributeCount - (event.attributes.length - rest.length)}
          testId="span-event-attributes"
          what="attributes"
        />
      ) : null}
    </li>
  );
}

/**
 * The selected span in full: where it sits (trace, correlation, parent), its timing and status,
 * its envelope with the raw detail, and the maps the tree leaves out (attributes, events,
 * resource), every value redacted as the envelope is and cut as the tree cuts texts.
 */
export function SpanPanel({
  requestId,
  span: s,
  data,
  criticalNs,
  echoes,
  parentShown,
  anchorOf,
}: SpanPanelProps) {
  const echoAnchor = echoes ? anchorOf(echoes.spanId) : undefined;
  return (
    <aside
      className="span-panel"
      aria-labelledby="span-panel-heading"
      data-testid="span-panel"
      data-span-id={s.spanId}
    >
      <h2 id="span-panel-heading">
        Span: {s.service} · {s.span}
      </h2>
      <p>
        <Link href={requestHref(requestId)} scroll={false} data-testid="span-panel-close">
          Close span details
        </Link>
      </p>
      <dl className="span-facts">
        <dt>Service · kind</dt>
        <dd>
          {s.service} · {s.kind}
        </dd>
        <dt>Call</dt>
        <dd data-testid="span-panel-call">
          <code>{s.call}</code>
          {s.dependency !== '' && s.dependency !== s.call ? (
            <span className="muted"> · calls {s.dependency}</span>
          ) : null}
        </dd>
        {data?.scope ? (
          <>
            <dt>Scope</dt>
            <dd>{data.scope}</dd>
          </>
        ) : null}
        <dt>Span id</dt>
        <dd>
          <code>{visibleText(s.spanId)}</code>
        </dd>
        <dt>Parent span</dt>
        <dd>
          {s.parentSpanId === '' ? (
            <span className="muted">none (a root)</span>
          ) : parentShown ? (
            <Link
              href={`${requestHref(requestId, s.parentSpanId)}#${anchorOf(s.parentSpanId)}`}
              data-testid="span-parent-link"
            >
              <code>{visibleText(s.parentSpanId)}</code>
            </Link>
          ) : (
            <>
              <code>{visibleText(s.parentSpanId)}</code> <span className="warn">(never arrived)</span>
            </>
          )}
        </dd>
        <dt>Trace</dt>
        <dd>
          <Link href={requestHref(s.traceId)} data-testid="span-trace-link">
            <code>{visibleText(s.traceId)}</code>
          </Link>
        </dd>
        <dt>Correlation id</dt>
        <dd>
          {s.correlationId === '' ? (
            <span className="muted">none</span>
          ) : (
            <Link href={requestHref(s.correlationKey)} data-testid="span-correlation-link">
              <code>{s.correlationId}</code>
            </Link>
          )}
        </dd>
        <dt>Start</dt>
        <dd>
          <time data-testid="span-start">
            {data ? formatTimeNs(data.startNs) : new Date(s.startNs / 1e6).toISOString()}
          </time>
        </dd>
        <dt>Duration</dt>
        <dd data-testid="span-duration">{formatDurationNs(s.durationNs)}</dd>
        <dt>Status</dt>
        <dd data-testid="span-status">
          {s.status}
          {data && data.statusMessage.text !== '' ? (
            <>
              : {data.statusMessage.text}
              <Cut span={s} value={data.statusMessage} />
            </>
          ) : null}
        </dd>
        <dt>Critical path</dt>
        <dd data-testid="span-critical">
          {criticalNs === null
            ? 'no: the request did not wait on this span'
            : `yes: ${formatDurationNs(criticalNs)} of the request's time is this span's own`}
        </dd>
        {s.envelope && s.failed && !s.firstHand ? (
          <>
            <dt>Echoes</dt>
            <dd data-testid="span-echoes">
              {echoes && echoAnchor ? (
                <Link href={`${requestHref(requestId, echoes.spanId)}#${echoAnchor}`}>
                  {echoes.service} {echoes.span} <code>{echoes.envelope?.code}</code>
                </Link>
              ) : (
                'a deeper failure not among the spans shown'
              )}
            </dd>
          </>
        ) : null}
      </dl>
      <h3>Envelope</h3>
      {s.envelope ? (
        <div data-testid="span-panel-envelope">
          <p>
            <ClassBadge value={s.envelope.class} />{' '}
            {s.failed
              ? s.firstHand
                ? 'first-hand failure'
                : 'propagated failure'
              : 'part of its parent call (not counted)'}
          </p>
          <table className="span-values">
            <tbody>
              {(
                [
                  ['class', s.envelope.class],
                  ['source', s.envelope.source],
                  ['code', s.envelope.code],
                  ['message', s.envelope.message],
                  ['retryable', String(s.envelope.retryable)],
                  ['retry_after', s.envelope.retry_after === null ? 'null' : String(s.envelope.retry_after)],
                  ['correlation_id', s.envelope.correlation_id],
                ] as const
              ).map(([k, v]) => (
                <tr key={k} data-key={k}>
                  <th scope="row">
                    <code>{k}</code>
                  </th>
                  <td>
                    {v}
                    {k === 'message' ? (
                      <Cut
                        span={s}
                        value={{ cut: s.messageLength > SHOWN_TEXT_CHARS, length: s.messageLength }}
                      />
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {s.raw ? (
            <>
              <p className="muted">
                raw (redacted before storage)
                <Cut span={s} value={{ cut: s.rawLength > SHOWN_TEXT_CHARS, length: s.rawLength }} />
              </p>
              <pre data-testid="span-panel-raw">{prettyRaw(s.raw)}</pre>
            </>
          ) : null}
        </div>
      ) : (
        <p className="muted">No envelope: this span is not a classified failure.</p>
      )}
      {data ? (
        <>
          <h3>Attributes ({data.attributeCount})</h3>
          <Values
            span={s}
            list={data.attributes}
            count={data.attributeCount}
            testId="span-attributes"
            what="attributes"
          />
          <h3>Events ({data.eventCount})</h3>
          {data.events.length === 0 ? (
            <p className="muted">No events.</p>
          ) : (
            <ul className="span-events" data-testid="span-events">
              {data.events.map((e, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: events have no id; their order is fixed
                <EventItem key={i} span={s} event={e} />
              ))}
            </ul>
          )}
          {data.eventCount > data.events.length ? (
            <p className="muted">
              {data.events.length} of {data.eventCount} events shown.
            </p>
          ) : null}
          <h3>Resource ({data.resourceCount})</h3>
          <Values
            span={s}
            list={data.resource}
            count={data.resourceCount}
            testId="span-resource"
            what="resource attributes"
          />
        </>
      ) : (
        <p className="muted">This span's attributes could not be read again (it may have expired).</p>
      )}
    </aside>
  );
}

function prettyRaw(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

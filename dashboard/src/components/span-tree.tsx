import { classStyle } from '../lib/failure-classes';
import { formatDurationNs } from '../lib/format';
import { buildSpanTree, type SpanTreeNode } from '../lib/span-tree';
import { REQUEST_MAX_SPANS, type RequestSpan } from '../server/request-data';
import { SpanEnvelope } from './span-envelope';
import { SpanTreeToggle } from './span-tree-toggle';

type Node = SpanTreeNode<RequestSpan>;

interface Axis {
  start: number;
  total: number;
  /** Page-local element ids by span id (span ids are span data: never used as ids themselves). */
  anchors: Map<string, string>;
  /** More spans than shown: a missing parent may be one of those not shown. */
  capped: boolean;
}

/** Whether a failure happened here, echoes a deeper one, or is part of another call's attempt. */
function FailureOrigin({ node, axis }: { node: Node; axis: Axis }) {
  const s = node.span;
  if (!s.envelope) return null;
  if (!s.failed)
    return (
      <span className="muted" data-testid="failure-origin" data-origin="part-of-call">
        {' '}
        · part of its parent call (not counted)
      </span>
    );
  if (s.firstHand)
    return (
      <span className="bad" data-testid="failure-origin" data-origin="first-hand">
        {' '}
        · first-hand failure
      </span>
    );
  const echoed = node.echoes;
  return (
    <span className="muted" data-testid="failure-origin" data-origin="propagated">
      {' '}
      · propagated
      {echoed ? (
        <>
          : echoes{' '}
          <a href={`#${axis.anchors.get(echoed.spanId)}`}>
            {echoed.service} {echoed.span} <code>{echoed.envelope?.code}</code>
          </a>
        </>
      ) : (
        ' (the deeper failure is not among the spans shown)'
      )}
    </span>
  );
}

function SpanItem({ node, axis, index }: { node: Node; axis: Axis; index: number }) {
  const s = node.span;
  const left = ((s.startNs - axis.start) / axis.total) * 100;
  const width = (s.durationNs / axis.total) * 100;
  const style = s.envelope ? classStyle(s.envelope.class) : null;
  const anchor = axis.anchors.get(s.spanId)!;
  const hasChildren = node.children.length > 0;
  return (
    <div
      role="treeitem"
      aria-level={node.level}
      aria-expanded={hasChildren ? true : undefined}
      aria-selected={false}
      // One tab stop for the whole tree (the ARIA pattern's roving tabindex); arrows move within.
      tabIndex={node.level === 1 && index === 0 ? 0 : -1}
      aria-posinset={index + 1}
      aria-labelledby={`${anchor}-label`}
      id={anchor}
      className="span-block"
      data-testid="span-row"
      data-span-id={s.spanId}
      data-orphan={node.orphan ? 'true' : undefined}
    >
      <div className="timeline-row">
        <div id={`${anchor}-label`} style={{ paddingLeft: `${(node.level - 1) * 14}px` }}>
          {hasChildren ? (
            <button type="button" className="tree-toggle" data-tree-toggle aria-label="collapse or expand">
              ▾
            </button>
          ) : (
            <span className="tree-toggle" aria-hidden="true" />
          )}
          <strong>{s.service}</strong> <span className="muted">{s.kind}</span> {s.span}
          {s.attempt > 1 ? <span className="muted"> · attempt {s.attempt}</span> : null}
          {s.misroutedRetry ? <span className="bad"> · misrouted retry</span> : null}
          <FailureOrigin node={node} axis={axis} />
          {node.orphan ? (
            <span className="warn" data-testid="span-orphan">
              {' '}
              · parent span <code>{s.parentSpanId}</code>{' '}
              {axis.capped ? 'not among the spans shown' : 'never arrived'}
            </span>
          ) : null}
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
      <SpanEnvelope span={s} />
      {hasChildren ? (
        // biome-ignore lint/a11y/useSemanticElements: the ARIA tree pattern's child group has no HTML element
        <div role="group">
          {node.children.map((c, i) => (
            <SpanItem key={c.span.spanId} node={c} axis={axis} index={i} />
          ))}
        </div>
      ) : null}
    </div>
  );
}

/**
 * Every span of one request as a waterfall tree: nested by parent/child across services, siblings
 * in start order, on one time axis. A span whose parent never arrived is a flagged root; each
 * failure says whether it is first-hand or the echo of a deeper one, and which.
 */
export function SpanTree({ spans: all }: { spans: RequestSpan[] }) {
  // A page stays bounded whatever one request holds: the first REQUEST_MAX_SPANS, and a note.
  const capped = all.length > REQUEST_MAX_SPANS;
  const spans = all.slice(0, REQUEST_MAX_SPANS);
  const start = Math.min(...spans.map((s) => s.startNs));
  const end = Math.max(...spans.map((s) => s.startNs + s.durationNs));
  const anchors = new Map(spans.map((s, i) => [s.spanId, `span-${i}`]));
  const axis: Axis = { start, total: Math.max(1, end - start), anchors, capped };
  const roots = buildSpanTree(spans);
  const orphans = roots.filter((r) => r.orphan).length;
  return (
    <div data-testid="span-timeline">
      <p className="muted">
        {spans.length} spans across {new Set(spans.map((s) => s.service)).size} services over{' '}
        {formatDurationNs(end - start)}
        {orphans > 0 ? (
          <span data-testid="orphan-note">
            {' '}
            — {orphans} {orphans === 1 ? 'span is' : 'spans are'} shown at the root because{' '}
            {capped ? 'its parent is not among the spans shown' : 'its parent never arrived'} (not
            instrumented, lost, or still in flight)
          </span>
        ) : null}
        {capped && (
          <span data-testid="spans-capped">
            {' '}
            — more than {REQUEST_MAX_SPANS} spans: the first {REQUEST_MAX_SPANS} are shown (all of them: the
            request_timeline query in the SQL console)
          </span>
        )}
      </p>
      <div role="tree" id="span-tree" aria-label="Spans of this request by parent">
        {roots.map((r, i) => (
          <SpanItem key={r.span.spanId} node={r} axis={axis} index={i} />
        ))}
      </div>
      <SpanTreeToggle treeId="span-tree" />
    </div>
  );
}

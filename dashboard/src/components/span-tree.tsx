import { visibleText } from '@faultline/sql/format';
import Link from 'next/link';
import { type CriticalSection, criticalPath } from '../lib/critical-path';
import { dependencyEndpoint } from '../lib/dependency-endpoint';
import { classStyle } from '../lib/failure-classes';
import { countOf, formatDurationNs, formatPercent } from '../lib/format';
import { requestHref } from '../lib/request-href';
import { buildSpanTree, type SpanTreeNode } from '../lib/span-tree';
import { type MissingCallee, REQUEST_MAX_SPANS, type RequestSpan } from '../server/request-data';
import type { RequestLogRecord } from '../server/request-logs-data';
import type { SpanPanelData } from '../server/span-panel-data';
import { SpanEnvelope } from './span-envelope';
import { SpanLogRecords } from './span-log-records';
import { SpanPanel } from './span-panel';
import { SpanTreeToggle } from './span-tree-toggle';

type Node = SpanTreeNode<RequestSpan>;

interface Axis {
  start: number;
  total: number;
  /** Page-local element ids by span id (span ids are span data: never used as ids themselves). */
  anchors: Map<string, string>;
  /** More spans than shown: a missing parent may be one of those not shown. */
  capped: boolean;
  /** The id the page was opened with: selecting a span keeps it. */
  requestId: string;
  selectedSpanId: string | undefined;
  /** The critical path's sections by span id: a span with an entry is on the path. */
  critical: Map<string, CriticalSection[]>;
  /** Calls no callee span answered, by the service that answers at their endpoint (request-data). */
  missingCallees: Map<string, MissingCallee>;
  /** The request's log records by the span they were logged in (request-logs-data). */
  logs: Map<string, RequestLogRecord[]>;
}

/** Selecting a span is a link: it survives a reload and can be shared. */
function selectHref(axis: Axis, spanId: string): string {
  return requestHref(axis.requestId, spanId);
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
          <Link
            href={`${selectHref(axis, echoed.spanId)}#${axis.anchors.get(echoed.spanId)}`}
            data-testid="echo-link"
          >
            {echoed.service} {echoed.call} <code>{echoed.envelope?.code}</code>
          </Link>
        </>
      ) : (
        ' (the deeper failure is not among the spans shown)'
      )}
    </span>
  );
}

/** Two overlapping sheets: drawn, so it shows whatever fonts the reader has. */
function CopyIcon() {
  return (
    <svg width="11" height="11" viewBox="0 0 12 12" aria-hidden="true" focusable="false">
      <rect x="3.5" y="0.5" width="8" height="8" rx="1" fill="none" stroke="currentColor" />
      <rect x="0.5" y="3.5" width="8" height="8" rx="1" fill="#fff" stroke="currentColor" />
    </svg>
  );
}

/**
 * Who a call reached: the service of the SERVER spans under it in the same trace (the callee
 * reported itself), else what the caller's span says it called (its dependency), muted.
 */
function Peer({ node, axis }: { node: Node; axis: Axis }) {
  const s = node.span;
  if (s.kind !== 'Client' && s.kind !== 'Producer') return null;
  const callees = [
    ...new Set(node.children.filter((c) => c.span.kind === 'Server').map((c) => c.span.service)),
  ];
  if (callees.length > 0) {
    const text = callees.join(', ');
    return (
      <span
        className="span-peer"
        title={`answered by ${text}`}
        data-testid="span-peer"
        data-peer-source="callee"
      >
        {' '}
        → {text}
      </span>
    );
  }
  if (s.dependency === '') return null;
  const missing = axis.missingCallees.get(dependencyEndpoint(s.dependencyKey));
  if (missing) {
    const sampled =
      missing.unsampled > 0
        ? `; ${missing.callee} keeps about ${formatPercent(1 - missing.unsampled)} of its traces, so its span was likely sampled out`
        : '';
    const blame = s.firstHand
      ? ` The failure is counted first-hand on this call: whether it was ${missing.callee}'s own cannot be seen without that span.`
      : '';
    return (
      <span
        className="span-peer muted"
        title={`${missing.callee} answers at ${s.dependency} but sent no span for this call${sampled}.${blame}`}
        data-testid="span-peer"
        data-peer-source="missing-callee"
      >
        {' '}
        → {missing.callee}{' '}
        <span className="missing-callee" data-testid="missing-callee">
          {missing.unsampled > 0 ? '(no span: sampled out?)' : '(no span)'}
          {s.firstHand ? ' · first-hand rests on it' : ''}
        </span>
      </span>
    );
  }
  return (
    <span
      className="span-peer muted"
      title={`calls ${s.dependency} (no span from the callee)`}
      data-testid="span-peer"
      data-peer-source="caller"
    >
      {' '}
      → {s.dependency}
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
  const selected = axis.selectedSpanId === s.spanId;
  const sections = axis.critical.get(s.spanId);
  // The one tab stop: the selected span, else the first root.
  const tabStop =
    axis.selectedSpanId !== undefined && axis.anchors.has(axis.selectedSpanId)
      ? selected
      : node.level === 1 && index === 0;
  return (
    <div
      role="treeitem"
      aria-level={node.level}
      aria-expanded={hasChildren ? true : undefined}
      aria-selected={selected}
      // One tab stop for the whole tree (the ARIA pattern's roving tabindex); arrows move within.
      tabIndex={tabStop ? 0 : -1}
      aria-posinset={index + 1}
      aria-labelledby={`${anchor}-label`}
      id={anchor}
      className="span-block"
      data-testid="span-row"
      data-span-id={s.spanId}
      data-orphan={node.orphan ? 'true' : undefined}
      data-critical={sections ? 'true' : undefined}
      data-selected={selected ? 'true' : undefined}
    >
      <div className="timeline-row">
        <div
          id={`${anchor}-label`}
          className="span-label"
          style={{ paddingLeft: `${(node.level - 1) * 14}px` }}
        >
          <div className="span-call-line">
            {hasChildren ? (
              <button type="button" className="tree-toggle" data-tree-toggle aria-label="collapse or expand">
                ▾
              </button>
            ) : (
              <span className="tree-toggle" aria-hidden="true" />
            )}
            <strong className="span-service" title={s.service} data-testid="span-service">
              {s.service}
            </strong>{' '}
            <span className="muted span-kind">{s.kind}</span>{' '}
            {/* Out of the tab order: the tree keeps one tab stop, and Enter on the item follows this. */}
            <Link
              href={selectHref(axis, s.spanId)}
              scroll={false}
              tabIndex={-1}
              className="span-select span-call"
              title={s.call === s.span ? s.call : `${s.call}\nspan name: ${s.span}`}
              data-span-select
              data-span-name={s.span}
              data-testid="span-call"
            >
              {s.call}
            </Link>
            <Peer node={node} axis={axis} />
            {/* Not part of the item's name: assistive technology copies with c on the item. */}
            <button
              type="button"
              className="copy-call"
              tabIndex={-1}
              aria-hidden="true"
              data-copy-call={s.call}
              title="copy the call's name (or press c on the row)"
            >
              <CopyIcon />
            </button>
          </div>
          {sections || s.attempt > 1 || s.misroutedRetry || s.envelope || node.orphan ? (
            <div className="span-notes">
              {sections ? (
                <span className="critical-badge" data-testid="critical-badge">
                  critical path
                </span>
              ) : null}
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
          ) : null}
        </div>
        <div className="timeline-track">
          {sections?.map((c) => (
            <div
              key={c.startNs}
              className="critical-section"
              aria-hidden="true"
              style={{
                left: `${((c.startNs - axis.start) / axis.total) * 100}%`,
                width: `${((c.endNs - c.startNs) / axis.total) * 100}%`,
              }}
            />
          ))}
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
        // Under its row's name, at its level.
        <div style={{ paddingLeft: `${(node.level - 1) * 14 + 18}px` }}>
          <SpanEnvelope span={s} />
        </div>
      ) : null}
      {axis.logs.has(s.spanId) ? (
        <div style={{ paddingLeft: `${(node.level - 1) * 14 + 18}px` }}>
          <SpanLogRecords
            records={axis.logs.get(s.spanId) ?? []}
            label={`log records of ${s.service} ${s.call}`}
          />
        </div>
      ) : null}
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
export function SpanTree({
  spans: all,
  requestId,
  selected,
  missingCallees = new Map(),
  logs = new Map(),
}: {
  spans: RequestSpan[];
  requestId: string;
  /** logsBySpan: the request's log records, each shown under its span ('' and unknown spans: above). */
  logs?: Map<string, RequestLogRecord[]>;
  /** loadMissingCallees: a call's missing callee span, said where the call is shown. */
  missingCallees?: Map<string, MissingCallee>;
  /** The span named by `&span=`, with its heavy columns when it is among the spans shown. */
  selected?: { spanId: string; data: SpanPanelData | null };
}) {
  // A page stays bounded whatever one request holds: the first REQUEST_MAX_SPANS, and a note.
  const capped = all.length > REQUEST_MAX_SPANS;
  const spans = all.slice(0, REQUEST_MAX_SPANS);
  const start = Math.min(...spans.map((s) => s.startNs));
  const end = Math.max(...spans.map((s) => s.startNs + s.durationNs));
  const anchors = new Map(spans.map((s, i) => [s.spanId, `span-${i}`]));
  const path = criticalPath(spans);
  const critical = new Map<string, CriticalSection[]>(path.spanIds.map((id) => [id, []]));
  for (const c of path.sections) critical.get(c.spanId)?.push(c);
  const axis: Axis = {
    start,
    total: Math.max(1, end - start),
    anchors,
    capped,
    requestId,
    selectedSpanId: selected?.spanId,
    critical,
    missingCallees,
    logs,
  };
  // Records logged outside a span, or in one not among those shown, are listed above the tree.
  const unplaced = [...logs].filter(([spanId]) => !anchors.has(spanId)).flatMap(([, list]) => list);
  const roots = buildSpanTree(spans);
  const nodes = flatten(roots);
  const selectedNode = selected ? nodes.get(selected.spanId) : undefined;
  const orphans = roots.filter((r) => r.orphan).length;
  return (
    <div data-testid="span-timeline">
      <p className="muted">
        {countOf(spans.length, 'span')} across {countOf(new Set(spans.map((s) => s.service)).size, 'service')}{' '}
        over {formatDurationNs(end - start)}
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
      {path.spanIds.length > 0 ? (
        <p className="muted" data-testid="critical-note">
          <span className="critical-badge">critical path</span>: the {path.spanIds.length}{' '}
          {path.spanIds.length === 1 ? 'span' : 'spans'} the request waited on from start to end (from the
          root, the child that finished last, then the one that finished before it started, and so on); a dark
          line under a bar is the time that span itself accounts for.
        </p>
      ) : null}
      {unplaced.length > 0 ? (
        <div data-testid="request-logs-unplaced">
          <p className="muted">
            {countOf(unplaced.length, 'log record')} of this request with no span shown (logged outside a
            span, or in one that never arrived):
          </p>
          <SpanLogRecords records={unplaced} label="log records with no span shown" />
        </div>
      ) : null}
      <div className={selected ? 'request-layout with-panel' : 'request-layout'}>
        <div role="tree" id="span-tree" aria-label="Spans of this request by parent">
          {roots.map((r, i) => (
            <SpanItem key={r.span.spanId} node={r} axis={axis} index={i} />
          ))}
        </div>
        {selected && selectedNode ? (
          <SpanPanel
            requestId={requestId}
            span={selectedNode.span}
            data={selected.data}
            criticalNs={
              critical.has(selected.spanId)
                ? (critical.get(selected.spanId) ?? []).reduce((sum, c) => sum + (c.endNs - c.startNs), 0)
                : null
            }
            echoes={selectedNode.echoes}
            parentShown={nodes.has(selectedNode.span.parentSpanId)}
            anchorOf={(id) => anchors.get(id)}
          />
        ) : selected ? (
          <aside className="span-panel" aria-labelledby="span-panel-heading" data-testid="span-panel-missing">
            <h2 id="span-panel-heading">Span not found</h2>
            <p>
              No span <code>{visibleText(selected.spanId)}</code> among the spans shown for this request.{' '}
              <Link href={requestHref(requestId)}>Close</Link>
            </p>
          </aside>
        ) : null}
      </div>
      {/* Always present, so a screen reader announces a selection made from the tree. */}
      <p role="status" className="sr-only" data-testid="span-selection-status">
        {selectedNode
          ? `Details of ${selectedNode.span.service} ${selectedNode.span.call} shown beside the tree.`
          : ''}
      </p>
      <SpanTreeToggle treeId="span-tree" />
    </div>
  );
}

/** Every node of the tree by span id. */
function flatten(roots: Node[]): Map<string, Node> {
  const out = new Map<string, Node>();
  const stack = [...roots];
  while (stack.length > 0) {
    const n = stack.pop()!;
    out.set(n.span.spanId, n);
    stack.push(...n.children);
  }
  return out;
}

import { ParamError } from '../../src/components/param-error';
import { SpanLogRecords } from '../../src/components/span-log-records';
import { SpanTree } from '../../src/components/span-tree';
import type { SearchParams } from '../../src/lib/dashboard-params';
import {
  loadMissingCallees,
  loadRequestSpans,
  REQUEST_ID_RE,
  REQUEST_MAX_SPANS,
} from '../../src/server/request-data';
import { loadRequestLogs, logsBySpan, REQUEST_MAX_LOGS } from '../../src/server/request-logs-data';
import { loadSpanPanel, type SpanPanelData } from '../../src/server/span-panel-data';

export const dynamic = 'force-dynamic';

export default async function RequestPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  const raw = sp.id;
  const id = (Array.isArray(raw) ? raw[0] : raw)?.trim() ?? '';
  const rawSpan = sp.span;
  const spanParam = (Array.isArray(rawSpan) ? rawSpan[0] : rawSpan)?.trim() ?? '';
  // A span id is span data too: any text an id may be, else no span is selected.
  const spanId = REQUEST_ID_RE.test(spanParam) ? spanParam : undefined;
  let body: React.ReactNode = (
    <p className="muted">Paste a correlation id (from an envelope or a log line) or a 32-hex trace id.</p>
  );
  if (id !== '' && !REQUEST_ID_RE.test(id)) {
    body = (
      <ParamError
        message={`"${id.slice(0, 80)}" is not an id: a correlation or trace id has at most 1024 characters and no control characters.`}
      />
    );
  } else if (id !== '') {
    const spans = await loadRequestSpans(id);
    const [missingCallees, records] = await Promise.all([
      loadMissingCallees(spans.slice(0, REQUEST_MAX_SPANS)),
      loadRequestLogs(id, spans.slice(0, REQUEST_MAX_SPANS)),
    ]);
    // Only a span the tree shows can be selected, so the panel never reads outside this request.
    const target = spanId ? spans.slice(0, REQUEST_MAX_SPANS).find((s) => s.spanId === spanId) : undefined;
    let selected: { spanId: string; data: SpanPanelData | null } | undefined;
    if (spanId)
      selected = {
        spanId,
        data: target ? await loadSpanPanel(target.traceId, target.spanId, target.startNs) : null,
      };
    body =
      spans.length === 0 ? (
        <>
          <p data-testid="request-empty">
            No span has trace id or correlation id <code>{id}</code>. Spans arrive a few seconds after the
            request ends; ids are case-sensitive.
          </p>
          {records.length > 0 ? (
            // A request only its log records show (a worker with no span around it).
            <SpanLogRecords
              records={records.slice(0, REQUEST_MAX_LOGS)}
              label="log records of this request"
            />
          ) : null}
        </>
      ) : (
        <SpanTree
          spans={spans}
          requestId={id}
          selected={selected}
          missingCallees={missingCallees}
          logs={logsBySpan(records)}
        />
      );
  }
  return (
    <>
      <h1>Request</h1>
      <form method="get" action="/request" className="filter-bar">
        <label>
          Correlation id or trace id{' '}
          <input name="id" data-testid="request-id" defaultValue={id} size={48} autoComplete="off" />
        </label>
        <button type="submit" data-testid="request-search">
          Search
        </button>
      </form>
      <section className="panel">{body}</section>
    </>
  );
}

import { ParamError } from '../../src/components/param-error';
import { SpanTree } from '../../src/components/span-tree';
import type { SearchParams } from '../../src/lib/dashboard-params';
import { loadRequestSpans, REQUEST_ID_RE } from '../../src/server/request-data';

export const dynamic = 'force-dynamic';

export default async function RequestPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  const raw = sp.id;
  const id = (Array.isArray(raw) ? raw[0] : raw)?.trim() ?? '';
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
    body =
      spans.length === 0 ? (
        <p data-testid="request-empty">
          No span has trace id or correlation id <code>{id}</code>. Spans arrive a few seconds after the
          request ends; ids are case-sensitive.
        </p>
      ) : (
        <SpanTree spans={spans} />
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

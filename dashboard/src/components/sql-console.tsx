'use client';

import { toCsv, visibleText } from '@faultline/sql/format';
import { useState } from 'react';
import { resultCellHref } from '../lib/result-links';

export interface NamedQueryView {
  name: string;
  description: string;
  params: { name: string; type: string }[];
  sql: string;
}

interface Result {
  columns: { name: string; type: string }[];
  rows: Record<string, unknown>[];
  truncated: boolean;
  elapsedMs: number;
}

/** `["a","b"]` as an array; anything else as typed, for the store to refuse with its reason. */
function jsonArray(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text.trim() === '' ? '[]' : text);
    return Array.isArray(value) ? value : text;
  } catch {
    return text;
  }
}

/** Numbers read right-aligned, as in every other table: integer, float and decimal columns. */
function isNumeric(type: string): boolean {
  return /^(Nullable\()?(U?Int\d+|Float\d+|Decimal)/.test(type);
}

function stripHeader(sql: string): string {
  return sql.replace(/^(--.*\n)+/, '').trim();
}

export function SqlConsole({
  queries,
  initialName,
  initialParams,
  maxRows,
  maxSeconds,
}: {
  queries: NamedQueryView[];
  initialName: string | null;
  initialParams: Record<string, string>;
  maxRows: number;
  maxSeconds: number;
}) {
  const [selected, setSelected] = useState<NamedQueryView | null>(
    queries.find((q) => q.name === initialName) ?? null,
  );
  const [params, setParams] = useState<Record<string, string>>(initialParams);
  const [sql, setSql] = useState(
    'SELECT class, source, count() AS failures\nFROM failures\nGROUP BY class, source\nORDER BY failures DESC',
  );
  const [result, setResult] = useState<Result | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function run(body: unknown) {
    setBusy(true);
    setError(null);
    try {
      const res = await fetch('/api/sql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = await res.json();
      if (!res.ok) {
        setResult(null);
        setError(json.error ?? `HTTP ${res.status}`);
      } else setResult(json);
    } catch (err) {
      setError(String(err));
    } finally {
      setBusy(false);
    }
  }

  function runNamed() {
    if (!selected) return;
    const typed: Record<string, unknown> = {};
    for (const p of selected.params) {
      const v = params[p.name] ?? '';
      // Booleans and arrays are the types a text box cannot carry as is: an array is written as JSON.
      typed[p.name] = p.type === 'Bool' ? v === 'true' : p.type.startsWith('Array(') ? jsonArray(v) : v;
    }
    void run({ name: selected.name, params: typed });
  }

  function downloadCsv() {
    if (!result) return;
    const blob = new Blob(
      [
        toCsv(
          result.columns.map((c) => c.name),
          result.rows,
        ),
      ],
      { type: 'text/csv' },
    );
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `${selected?.name.replace(/\//g, '-') ?? 'query'}.csv`;
    a.click();
    URL.revokeObjectURL(a.href);
  }

  return (
    <div className="sql-layout sql-console">
      <aside className="panel">
        <h2>Named queries</h2>
        <ul className="named-list">
          {queries.map((q) => (
            <li key={q.name}>
              <button
                type="button"
                data-testid={`named-${q.name}`}
                aria-pressed={selected?.name === q.name}
                onClick={() => setSelected(q)}
                title={q.description}
              >
                <code>{q.name}</code>
              </button>
            </li>
          ))}
        </ul>
      </aside>
      <div>
        {selected ? (
          <section className="panel" data-testid="named-panel">
            <h2>
              <code>{selected.name}</code>
            </h2>
            <p className="muted">{selected.description}</p>
            <div className="param-inputs">
              {selected.params.map((p) => (
                <label key={p.name}>
                  {p.name} <span className="muted">{p.type}</span>{' '}
                  <input
                    data-testid={`param-${p.name}`}
                    value={params[p.name] ?? ''}
                    onChange={(e) => setParams({ ...params, [p.name]: e.target.value })}
                  />
                </label>
              ))}
            </div>
            <button type="button" data-testid="run-named" disabled={busy} onClick={runNamed}>
              Run {selected.name}
            </button>{' '}
            <button type="button" onClick={() => setSql(stripHeader(selected.sql))}>
              Copy into editor
            </button>
            <details>
              <summary>SQL</summary>
              <pre>{selected.sql}</pre>
            </details>
          </section>
        ) : null}
        <section className="panel">
          <h2>
            Read-only SQL{' '}
            <span className="muted">
              ClickHouse readonly · at most {maxRows.toLocaleString('en-US')} rows · {maxSeconds}s
            </span>
          </h2>
          <textarea
            data-testid="sql-editor"
            value={sql}
            onChange={(e) => setSql(e.target.value)}
            spellCheck={false}
          />
          <button type="button" data-testid="run-sql" disabled={busy} onClick={() => run({ sql })}>
            Run SQL
          </button>
        </section>
        {error ? (
          <div className="error-box" role="alert" data-testid="sql-error">
            {error}
          </div>
        ) : null}
        {result ? (
          <section className="panel" data-testid="sql-result">
            <p className="muted">
              <span data-testid="sql-row-count">{result.rows.length}</span> rows
              {result.truncated ? ' (truncated at the row limit)' : ''} in {result.elapsedMs} ms{' '}
              <button type="button" data-testid="download-csv" onClick={downloadCsv}>
                Download CSV
              </button>
            </p>
            <div style={{ overflowX: 'auto' }}>
              <table data-testid="sql-table">
                <thead>
                  <tr>
                    {result.columns.map((c) => (
                      <th key={c.name} title={c.type} className={isNumeric(c.type) ? 'num' : undefined}>
                        {c.name}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {result.rows.slice(0, 1000).map((row, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: result rows have no identity of their own
                    <tr key={i}>
                      {result.columns.map((c) => {
                        const v = row[c.name];
                        // Span data: invisible and reordering characters shown as markers.
                        const shown = visibleText(
                          typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v ?? ''),
                        );
                        const href = resultCellHref(c.name, v, row);
                        return (
                          <td key={c.name} className={isNumeric(c.type) ? 'num' : undefined}>
                            {href ? (
                              <a href={href} data-testid="sql-cell-link">
                                {shown}
                              </a>
                            ) : (
                              shown
                            )}
                          </td>
                        );
                      })}
                    </tr>
                  ))}
                </tbody>
              </table>
              {result.rows.length > 1000 ? (
                <p className="muted">First 1,000 rows shown; the CSV has all {result.rows.length}.</p>
              ) : null}
            </div>
          </section>
        ) : null}
      </div>
    </div>
  );
}

import { describe, expect, it } from 'vitest';
import { serializeRows, serializeRowsToBuffer } from '../../src/connection/serialize-rows.js';
import { makeRow } from '../support/trace-row-fixture.js';

describe('serializeRowsToBuffer', () => {
  it('writes one JSON object per line, each ending in a newline, as UTF-8 of the exact length', () => {
    // Two-, three- and four-byte characters and a lone surrogate (JSON.stringify escapes it).
    const rows = [
      makeRow({ SpanName: 'GET /café', SpanAttributes: { 'db.statement': "SELECT '€'" } }),
      makeRow({ SpanName: 'POST /🚀', StatusMessage: `broken ${'\ud800'} half` }),
      makeRow({ SpanName: 'quote " and \\ and \n newline' }),
    ];
    const body = serializeRowsToBuffer(rows);
    const text = body.toString('utf8');
    expect(body.length).toBe(Buffer.byteLength(text));
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => JSON.parse(l))).toEqual(JSON.parse(JSON.stringify(rows)));
    expect(lines[0]).toContain('GET /café');
    expect(JSON.parse(lines[1]!).SpanName).toBe('POST /🚀');
    expect(lines[1]).toContain('\\ud800');
    expect(serializeRows(rows)).toBe(text);
  });

  it('is empty for no rows', () => {
    expect(serializeRowsToBuffer([]).length).toBe(0);
    expect(serializeRows([])).toBe('');
  });

  it('refuses a row that is not JSON-serializable, naming the contract', () => {
    const row = makeRow({ Duration: 10n as unknown as number });
    expect(() => serializeRowsToBuffer([row])).toThrow(/rows must be JSON-serializable TraceRow objects/);
  });
});

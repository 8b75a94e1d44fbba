import type { Envelope } from '../types.js';

/**
 * A tool's failure that says nothing of what failed beneath it is the tool's own: source `tool`,
 * not `unknown`; and a failure report with no code of its own (a `{ ok: false }` under no status,
 * read as a 200 body) gets `tool_error` rather than a status nobody answered.
 */
export function asToolFailure(envelope: Envelope, reportStatus?: number): Envelope {
  const source = envelope.source === 'unknown' || envelope.source === '' ? 'tool' : envelope.source;
  const code =
    reportStatus !== undefined && envelope.code === String(reportStatus) ? 'tool_error' : envelope.code;
  return source === envelope.source && code === envelope.code ? envelope : { ...envelope, source, code };
}

import { classifyError } from '@faultline/instrumentation';

/**
 * Whether ClickHouse refused an INSERT because of the rows it carried (a value it cannot parse or
 * hold, a block spanning too many partitions), as opposed to anything else: an unreachable
 * server, a full or read-only disk, memory pressure, a dropped table. The first is answered by
 * splitting the batch until the offending rows stand alone; everything else by waiting and
 * sending the same batch again, for as long as it takes, because the rows are fine.
 *
 * The verdict is the project's ClickHouse classifier's: `validation` is what retrying the same
 * data cannot fix. A syntax error is the statement's, never a row's, so it never splits.
 */
export function isRowError(err: unknown): boolean {
  const envelope = classifyError(err, { system: 'clickhouse' });
  return envelope.class === 'validation' && /^\d+$/.test(envelope.code) && envelope.code !== SYNTAX_ERROR;
}

const SYNTAX_ERROR = '62';

/**
 * The error's text, bounded, as a quarantined row keeps it: led by ClickHouse's number and type
 * ("Code: 41 (CANNOT_PARSE_DATETIME). …"), which chDB's text carries and a server's, once parsed
 * by @clickhouse/client, does not.
 */
export function failureReason(err: unknown): string {
  let text = err instanceof Error ? err.message : String(err);
  if (!/^Code: \d+/.test(text)) {
    const envelope = classifyError(err, { system: 'clickhouse' });
    const type = (envelope.raw as { type?: unknown } | null)?.type;
    if (/^\d+$/.test(envelope.code))
      text = `Code: ${envelope.code}${typeof type === 'string' ? ` (${type})` : ''}. ${text}`;
  }
  text = text.trim();
  return text.length > 1_000 ? `${text.slice(0, 1_000)}…` : text;
}

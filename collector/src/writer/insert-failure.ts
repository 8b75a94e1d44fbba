import { classifyError } from '@faultline/instrumentation';

const SYNTAX_ERROR = '62';

/**
 * Why ClickHouse refused an INSERT because of the rows it carried (a value it cannot parse or
 * hold, a block spanning too many partitions), or null when the refusal was anything else: an
 * unreachable server, a full or read-only disk, memory pressure, a dropped table. The first is
 * answered by splitting the batch until the offending rows stand alone; everything else by waiting
 * and sending the same batch again, for as long as it takes, because the rows are fine.
 *
 * The verdict is the project's ClickHouse classifier's (one classification per failure):
 * `validation` is what retrying the same data cannot fix. A syntax error is the statement's, never
 * a row's, so it never splits. The reason is the error's text, bounded, led by ClickHouse's number
 * and type ("Code: 41 (CANNOT_PARSE_DATETIME). …"), which chDB's text carries and a server's, once
 * parsed by @clickhouse/client, does not.
 */
export function rowRefusal(err: unknown): string | null {
  const envelope = classifyError(err, { system: 'clickhouse' });
  const numbered = /^\d+$/.test(envelope.code);
  if (envelope.class !== 'validation' || !numbered || envelope.code === SYNTAX_ERROR) return null;
  let text = err instanceof Error ? err.message : String(err);
  if (!/^Code: \d+/.test(text)) {
    const type = (envelope.raw as { type?: unknown } | null)?.type;
    text = `Code: ${envelope.code}${typeof type === 'string' ? ` (${type})` : ''}. ${text}`;
  }
  text = text.trim();
  return text.length > 1_000 ? `${text.slice(0, 1_000)}…` : text;
}

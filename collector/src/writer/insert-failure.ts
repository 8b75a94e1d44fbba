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

/** The error's text, bounded: what a quarantined row keeps as its reason. */
export function failureReason(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.length > 1_000 ? `${text.slice(0, 1_000)}…` : text;
}

import { attributes } from '@faultline/instrumentation/envelope';
import type { TraceRow } from '@faultline/sql';
import { classifyRow } from '../classify/classify-row.js';
import { isPreloadSpan, showsFailure } from '../classify/shows-failure.js';
import { classifyLogRecord, type LoggedException, loggedExceptionOf } from './classify-log-record.js';
import type { LogRow } from './log-row.js';

export interface SpanLogJoinOptions {
  /** Remembered spans and records, each (default 20 000): the oldest go first. */
  maxEntries?: number;
  /** How long a span or record is remembered (default 10 minutes). */
  maxAgeMs?: number;
  /** Resolves once every span acknowledged so far is inserted (never rejects). */
  spansInserted?: () => Promise<void>;
}

interface Remembered<T> {
  value: T;
  at: number;
}

/**
 * Joins log records to their spans at ingest, whichever arrives first (sql/schema/070_otel_logs.sql
 * says what each order writes):
 *  - a record of a span not seen yet is remembered, and the span, when it comes without an
 *    exception event of its own, is classified with the record's exception and marked
 *    `faultline.exception_from = log` (no guess for 070 to replace);
 *  - a span the collector classified without an exception event is remembered, and a record of it
 *    that comes later is classified with the span's attributes, so the envelope the record carries
 *    (which replaces the span's guess, 070) is the one the span would have got; the record is
 *    written only once the span is inserted, so the view that replaces the guess finds it.
 * Bounded: the oldest entries go past `maxEntries` or `maxAgeMs`; a span whose record comes later
 * than that is still replaced by 070, and a span whose record was stored earlier (or at another
 * collector instance) by 075, with the record's envelope as it was read alone.
 */
export class SpanLogJoin {
  private readonly spans = new Map<string, Remembered<Record<string, string>>>();
  private readonly records = new Map<string, Remembered<LoggedException>>();
  private readonly maxEntries: number;
  private readonly maxAgeMs: number;

  constructor(private readonly o: SpanLogJoinOptions = {}) {
    this.maxEntries = o.maxEntries ?? 20_000;
    this.maxAgeMs = o.maxAgeMs ?? 10 * 60_000;
  }

  /**
   * Classifies a decoded span (classifyRow), with a remembered record's exception when it has none;
   * whether it wrote an envelope (classifyRow's answer).
   */
  classifySpan(row: TraceRow): boolean {
    const ownEvent = row['Events.Name'].includes('exception');
    // Cheap for the many spans that are no failure while no record waits: no key is built.
    const record =
      ownEvent || this.records.size === 0 ? undefined : this.fresh(this.records, row.TraceId + row.SpanId);
    if (record && !isPreloadSpan(row.SpanAttributes) && showsFailure(row)) {
      // The exception event the span would have carried; the stored span keeps its own events.
      const withEvent: TraceRow = {
        ...row,
        'Events.Name': [...row['Events.Name'], 'exception'],
        'Events.Attributes': [...row['Events.Attributes'], exceptionAttributes(record)],
        'Events.Timestamp': [...row['Events.Timestamp'], row.Timestamp],
      };
      if (classifyRow(withEvent)) {
        // No guess: the view that replaces guesses (070) leaves it alone, whatever arrives later.
        row.SpanAttributes[attributes.ATTR_EXCEPTION_FROM] = attributes.EXCEPTION_FROM_LOG;
        this.remember(this.spans, row.TraceId + row.SpanId, row.SpanAttributes);
        return true;
      }
    }
    if (!classifyRow(row)) return false;
    if (!ownEvent) this.remember(this.spans, row.TraceId + row.SpanId, row.SpanAttributes);
    return true;
  }

  /**
   * Classifies a decoded log record (classifyLogRecord); whether it explains a span this collector
   * classified without an exception event (then the record waits for that span's insert).
   */
  classifyRecord(row: LogRow): { classified: boolean; explainsSeenSpan: boolean } {
    if (row.TraceId === '' || row.SpanId === '') {
      return { classified: classifyLogRecord(row), explainsSeenSpan: false };
    }
    const key = row.TraceId + row.SpanId;
    const span = this.fresh(this.spans, key);
    const classified = classifyLogRecord(row, span);
    if (span) return { classified, explainsSeenSpan: classified };
    const exception = classified ? loggedExceptionOf(row.LogAttributes) : undefined;
    if (exception) this.remember(this.records, key, exception);
    return { classified, explainsSeenSpan: false };
  }

  spansInserted(): Promise<void> {
    return this.o.spansInserted?.() ?? Promise.resolve();
  }

  private fresh<T>(map: Map<string, Remembered<T>>, key: string): T | undefined {
    const entry = map.get(key);
    if (entry === undefined) return undefined;
    if (Date.now() - entry.at > this.maxAgeMs) {
      map.delete(key);
      return undefined;
    }
    return entry.value;
  }

  private remember<T>(map: Map<string, Remembered<T>>, key: string, value: T): void {
    const now = Date.now();
    map.delete(key);
    map.set(key, { value, at: now });
    // A Map iterates in insertion order: the oldest entries are first.
    for (const [k, e] of map) {
      if (map.size <= this.maxEntries && now - e.at <= this.maxAgeMs) break;
      map.delete(k);
    }
  }
}

function exceptionAttributes(e: LoggedException): Record<string, string> {
  const attrs: Record<string, string> = {};
  if (e.type) attrs['exception.type'] = e.type;
  if (e.message) attrs['exception.message'] = e.message;
  return attrs;
}

/** How long a record waits for the span it explains to be inserted. */
export const JOIN_WAIT_MS = 5_000;

/**
 * Resolves once `writer` has inserted everything it acknowledged so far, or after JOIN_WAIT_MS
 * (ClickHouse away: the rows stay durable, and the pair is then joined only if the inserts happen
 * to land in order). Never rejects.
 */
export function insertedOrTimedOut(writer: {
  settle(o?: { timeoutMs?: number }): Promise<void>;
}): Promise<void> {
  return writer.settle({ timeoutMs: JOIN_WAIT_MS }).catch(() => undefined);
}

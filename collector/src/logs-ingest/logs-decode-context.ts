import { redactText } from '@faultline/instrumentation';
import { DecodeContext, type DecodeLimits } from '../otlp/decode-context.js';
import { OtlpDecodeError } from '../otlp/otlp-decode-error.js';
import { redactAttributes } from '../otlp/redact-row.js';
import { EARLIEST_START_SEC, MAX_FUTURE_SEC } from '../otlp/span-times.js';
import { toDateTime64, type UnixNanos } from '../otlp/unix-nanos.js';
import { classifyLogRecord } from './classify-log-record.js';
import type { LogRow } from './log-row.js';
import type { SpanLogJoin } from './span-log-join.js';

export interface LogsDecodeResult {
  rows: LogRow[];
  /** Records refused one by one (unusable ids, impossible times), in partial_success. */
  rejectedRecords: number;
  /** Why the first record was refused, or a warning about truncation; '' when nothing to say. */
  message: string;
  truncatedValues: number;
  /** Records classified as failures (an envelope written into their attributes). */
  failureRecords: number;
  /** Records that explain a span this collector classified: they wait for its insert. */
  explainsSeenSpans: number;
}

/** A record as both decoders hand it over, before its time and ids are judged. */
export interface DecodedRecord {
  row: LogRow;
  time: UnixNanos;
  observedTime: UnixNanos;
}

/** The highest SeverityNumber (FATAL4); anything else the column cannot mean is stored as 0. */
const MAX_SEVERITY = 24;

/**
 * One ExportLogsServiceRequest's rows and verdicts, shared by the protobuf and JSON decoders.
 * Attribute values and the body go through a trace DecodeContext (`values`), so they get exactly
 * the span path's bounds (length cut and counted, nesting depth).
 */
export class LogsDecodeContext {
  readonly values: DecodeContext;
  readonly rows: LogRow[] = [];
  readonly nowSec = Date.now() / 1000;
  rejectedRecords = 0;
  failureRecords = 0;
  explainsSeenSpans = 0;
  private records = 0;
  private firstRejection = '';

  constructor(
    private readonly limits: DecodeLimits,
    private readonly join?: SpanLogJoin,
  ) {
    this.values = new DecodeContext(limits);
  }

  countRecord(): void {
    if (++this.records > this.limits.maxSpansPerRequest) {
      throw new OtlpDecodeError(
        `request holds more than ${this.limits.maxSpansPerRequest} log records; lower the exporter's batch ` +
          'size (BatchLogRecordProcessor maxExportBatchSize) or raise FAULTLINE_MAX_SPANS_PER_REQUEST (it bounds records too)',
        413,
      );
    }
  }

  /** A SeverityNumber the column holds: 0 (unspecified) for anything outside the data model's 0…24. */
  severity(n: number): number {
    return Number.isInteger(n) && n >= 0 && n <= MAX_SEVERITY ? n : 0;
  }

  /** Judges a decoded record's ids and time, classifies it, clears it of credentials and keeps it. */
  addRecord({ row, time, observedTime }: DecodedRecord): void {
    const problem = idProblem(row.TraceId, row.SpanId) || this.timeOf(row, time, observedTime);
    if (problem) {
      if (this.rejectedRecords++ === 0) this.firstRejection = problem;
      return;
    }
    const verdict = this.join?.classifyRecord(row) ?? {
      classified: classifyLogRecord(row),
      explainsSeenSpan: false,
    };
    if (verdict.classified) this.failureRecords++;
    if (verdict.explainsSeenSpan) this.explainsSeenSpans++;
    redactAttributes(row.LogAttributes);
    redactAttributes(row.ResourceAttributes);
    redactAttributes(row.ScopeAttributes);
    if (row.Body !== '') row.Body = redactText(row.Body);
    this.rows.push(row);
  }

  /**
   * Sets the row's Timestamp: the record's time, else its observed time (the exporter's rule), else
   * its arrival; '' when set, else why the record is refused (the span rule: before 2000 or more
   * than 24 h ahead is a broken clock, and would fail an INSERT shared with other clients' rows).
   */
  private timeOf(row: LogRow, time: UnixNanos, observed: UnixNanos): string {
    const zero = (t: UnixNanos) => t.sec === 0 && t.ns === 0;
    const t = !zero(time) ? time : !zero(observed) ? observed : { sec: Math.floor(this.nowSec), ns: 0 };
    if (t.sec < EARLIEST_START_SEC || t.sec > this.nowSec + MAX_FUTURE_SEC) {
      return (
        `timeUnixNano ${t.sec}.${String(t.ns).padStart(9, '0')} s is outside the accepted range ` +
        `(2000-01-01 to 24 h past the collector's clock): check the sending host's clock and SDK`
      );
    }
    row.Timestamp = toDateTime64(t);
    return '';
  }

  result(): LogsDecodeResult {
    const notes: string[] = [];
    if (this.rejectedRecords > 0) {
      notes.push(`${this.rejectedRecords} log record(s) rejected: ${this.firstRejection}`);
    }
    const truncated = this.values.truncatedValues;
    if (truncated > 0) {
      notes.push(
        `${truncated} attribute value(s) or bodies truncated to ${this.limits.maxAttributeValueLength} characters`,
      );
    }
    return {
      rows: this.rows,
      rejectedRecords: this.rejectedRecords,
      message: notes.join('; '),
      truncatedValues: truncated,
      failureRecords: this.failureRecords,
      explainsSeenSpans: this.explainsSeenSpans,
    };
  }
}

/**
 * Why a record's ids make it unusable, or ''. Unlike a span's, a record's ids are optional (a
 * record logged outside any span has none); when present they are 16 and 8 bytes, and a span id
 * needs its trace id. All-zero ids arrive as ''.
 */
function idProblem(traceId: string, spanId: string): string {
  if (traceId !== '' && traceId.length !== 32)
    return 'trace_id must be empty or 16 bytes (32 hex characters)';
  if (spanId !== '' && spanId.length !== 16) return 'span_id must be empty or 8 bytes (16 hex characters)';
  if (spanId !== '' && traceId === '') return 'span_id is set but trace_id is missing or all zeros';
  return '';
}

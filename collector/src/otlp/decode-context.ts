import { sanitizeEnvelopeAttributes } from '@faultline/instrumentation/envelope';
import type { TraceRow } from '@faultline/sql';
import { fillAgentContext } from '../classify/agent-context.js';
import { classifyRow } from '../classify/classify-row.js';
import { restoreDerived } from '../classify/restore-derived.js';
import type { SpanLogJoin } from '../logs-ingest/span-log-join.js';
import { OtlpDecodeError } from './otlp-decode-error.js';
import { redactRowSecrets } from './redact-row.js';
import { SpanIndex } from './span-index.js';

/** Per-request bounds the decoders enforce (see README "Receiver" for the defaults). */
export interface DecodeLimits {
  /** Spans in one request at most; more → 413 for the whole request. */
  maxSpansPerRequest: number;
  /** Stringified attribute values longer than this (UTF-16 units) are truncated, and counted. */
  maxAttributeValueLength: number;
  /** Nesting depth of array/kvlist AnyValues at most; deeper → 400. */
  maxAnyValueDepth: number;
}

export interface DecodeResult {
  rows: TraceRow[];
  /**
   * Spans refused individually (invalid ids, impossible times) plus repeats dropped, reported in
   * `partial_success`.
   */
  rejectedSpans: number;
  /** Of `rejectedSpans`, the repeats of a traceId + spanId already in this export. */
  duplicateSpans: number;
  /** Why the first span was refused, or a warning about truncation; '' when nothing to say. */
  message: string;
  /** Attribute values cut to `maxAttributeValueLength`. */
  truncatedValues: number;
}

/** Accumulates one request's rows, rejections and limit checks; shared by both decoders. */
export class DecodeContext {
  readonly limits: DecodeLimits;
  /** The collector's clock when the request arrived (unix seconds): span times are judged by it. */
  readonly nowSec = Date.now() / 1000;
  readonly rows: TraceRow[] = [];
  rejectedSpans = 0;
  truncatedValues = 0;
  duplicateSpans = 0;
  private spans = 0;
  private firstRejection = '';
  private firstDuplicate = '';
  /** An agent library's span is among the rows: its failures may need their agent context. */
  private agentSpans = false;
  /** Where each span's row is, to keep one row per span. */
  private readonly spanIndex = new SpanIndex(this.rows);

  /** With a join, spans are classified with the log records that explain them (logs-ingest). */
  constructor(
    limits: DecodeLimits,
    private readonly join?: SpanLogJoin,
  ) {
    this.limits = limits;
  }

  countSpan(): void {
    if (++this.spans > this.limits.maxSpansPerRequest) {
      throw new OtlpDecodeError(
        `request holds more than ${this.limits.maxSpansPerRequest} spans; lower the exporter's batch size ` +
          '(BatchSpanProcessor maxExportBatchSize) or raise FAULTLINE_MAX_SPANS_PER_REQUEST',
        413,
      );
    }
  }

  /** Cuts an attribute value that is over the limit. */
  bound(value: string): string {
    if (value.length <= this.limits.maxAttributeValueLength) return value;
    this.truncatedValues++;
    return value.slice(0, this.limits.maxAttributeValueLength);
  }

  checkDepth(depth: number): void {
    if (depth > this.limits.maxAnyValueDepth) {
      throw new OtlpDecodeError(
        `attribute value nests arrays/kvlists deeper than ${this.limits.maxAnyValueDepth} levels; flatten it`,
      );
    }
  }

  reject(reason: string): void {
    if (this.rejectedSpans++ === 0) this.firstRejection = reason;
  }

  /**
   * Adds a decoded span's row, one per span: a traceId + spanId already in this export is a repeat
   * (an SDK or proxy that re-sent a batch into the same request, or a span exported twice), which
   * would otherwise be stored and counted twice. The last occurrence is kept, in the place of the
   * first: as with a repeated attribute key (and a repeated field in protobuf), the later report of
   * the same thing is taken as the newer one. The repeats are reported as rejected.
   */
  addRow(row: TraceRow): void {
    const attrs = row.SpanAttributes;
    if (attrs['ai.operationId'] !== undefined || attrs['gen_ai.operation.name'] !== undefined)
      this.agentSpans = true;
    // The preload's derivable attributes first: they mark its spans as decided. Then classify: the
    // collector's envelope passes the same redaction and bounds as any. A span's own envelope text
    // is sanitized; one the collector just built already is.
    restoreDerived(row);
    if (!(this.join ? this.join.classifySpan(row) : classifyRow(row)))
      sanitizeEnvelopeAttributes(row.SpanAttributes);
    redactRowSecrets(row);
    const at = this.spanIndex.claim(row.TraceId, row.SpanId, this.rows.length);
    if (at < 0) {
      this.rows.push(row);
      return;
    }
    this.rows[at] = row;
    if (this.duplicateSpans++ === 0) this.firstDuplicate = `trace_id ${row.TraceId} span_id ${row.SpanId}`;
  }

  result(): DecodeResult {
    if (this.agentSpans) fillAgentContext(this.rows);
    const notes: string[] = [];
    if (this.rejectedSpans > 0) notes.push(`${this.rejectedSpans} span(s) rejected: ${this.firstRejection}`);
    if (this.duplicateSpans > 0) {
      notes.push(
        `${this.duplicateSpans} duplicate span(s) dropped: the same trace_id and span_id appeared more ` +
          `than once in this export (first: ${this.firstDuplicate}); the last occurrence of each was kept`,
      );
    }
    if (this.truncatedValues > 0) {
      notes.push(
        `${this.truncatedValues} attribute value(s) truncated to ` +
          `${this.limits.maxAttributeValueLength} characters`,
      );
    }
    return {
      rows: this.rows,
      rejectedSpans: this.rejectedSpans + this.duplicateSpans,
      duplicateSpans: this.duplicateSpans,
      message: notes.join('; '),
      truncatedValues: this.truncatedValues,
    };
  }
}

/**
 * Why a span's ids make it unusable, or '' when they are fine. Ids arrive as hex with all-zero ids
 * already turned into '' (as the exporter's `TraceIDToHexOrEmptyString` does). OTLP requires a
 * non-zero 16-byte trace id and 8-byte span id; a parent id is empty or 8 bytes.
 */
export function idProblem(traceId: string, spanId: string, parentSpanId: string): string {
  if (traceId === '') return 'trace_id is missing or all zeros';
  if (traceId.length !== 32) return 'trace_id must be 16 bytes (32 hex characters)';
  if (spanId === '') return 'span_id is missing or all zeros';
  if (spanId.length !== 16) return 'span_id must be 8 bytes (16 hex characters)';
  if (parentSpanId.length !== 0 && parentSpanId.length !== 16) {
    return 'parent_span_id must be empty or 8 bytes (16 hex characters)';
  }
  return '';
}

/**
 * Sets an attribute. `__proto__` is a legal attribute key that a plain assignment would swallow
 * (it hits the prototype setter), so it becomes an own property instead.
 */
export function setAttribute(target: Record<string, string>, key: string, value: string): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

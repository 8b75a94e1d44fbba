import type { TraceRow } from '@faultline/sql';
import type { SpanLogJoin } from '../logs-ingest/span-log-join.js';
import {
  DecodeContext,
  type DecodeLimits,
  type DecodeResult,
  idProblem,
  setAttribute,
} from './decode-context.js';
import { type AnyValue, anyValueToString, goFloatString } from './go-json.js';
import { int64String } from './int64-string.js';
import { OtlpDecodeError } from './otlp-decode-error.js';
import { ProtoReader } from './proto-reader.js';
import { spanKindName, statusCodeName } from './span-enums.js';
import { acceptedEventTime, normalizeSpanTimes } from './span-times.js';
import { durationNanos, nanosFromHalves, toDateTime64, type UnixNanos } from './unix-nanos.js';

/*
 * A focused decoder for ExportTraceServiceRequest (opentelemetry-proto trace/v1, common/v1,
 * resource/v1) that writes exporter-shaped rows directly, with no intermediate message objects.
 * Field numbers are from the .proto files; unknown fields are skipped as protobuf requires.
 */

const LEN = 2;
const VARINT = 0;
const I64 = 1;

interface ResourceInfo {
  attributes: Record<string, string>;
  serviceName: string;
}

interface ScopeInfo {
  name: string;
  version: string;
}

export function decodeTracesProtobuf(body: Buffer, limits: DecodeLimits, join?: SpanLogJoin): DecodeResult {
  const ctx = new DecodeContext(limits, join);
  const r = new ProtoReader(body);
  while (r.pos < r.end) {
    const tag = r.uint32();
    if (tag === ((1 << 3) | LEN)) {
      const end = r.delimitedEnd();
      withEnd(r, end, () => decodeResourceSpans(r, ctx));
    } else r.skip(tag & 7);
  }
  return ctx.result();
}

/** Runs `fn` with the reader narrowed to [pos, end), then continues after `end`. */
export function withEnd(r: ProtoReader, end: number, fn: () => void): void {
  const outer = r.end;
  r.end = end;
  fn();
  r.pos = end;
  r.end = outer;
}

export function expectWire(field: string, wireType: number, expected: number): void {
  if (wireType !== expected) {
    throw new OtlpDecodeError(
      `invalid protobuf: field ${field} has wire type ${wireType}, expected ${expected}`,
    );
  }
}

function decodeResourceSpans(r: ProtoReader, ctx: DecodeContext): void {
  const resource: ResourceInfo = { attributes: {}, serviceName: '' };
  // `resource` may follow `scope_spans` on the wire; rows need it, so scope_spans wait.
  const scopeSpans: number[] = [];
  while (r.pos < r.end) {
    const tag = r.uint32();
    const field = tag >>> 3;
    if (field === 1) {
      expectWire('ResourceSpans.resource', tag & 7, LEN);
      const end = r.delimitedEnd();
      withEnd(r, end, () => decodeResource(r, ctx, resource));
    } else if (field === 2) {
      expectWire('ResourceSpans.scope_spans', tag & 7, LEN);
      const end = r.delimitedEnd();
      scopeSpans.push(r.pos, end);
      r.pos = end;
    } else r.skip(tag & 7);
  }
  resource.serviceName = resource.attributes['service.name'] ?? '';
  for (let i = 0; i < scopeSpans.length; i += 2) {
    r.pos = scopeSpans[i]!;
    withEnd(r, scopeSpans[i + 1]!, () => decodeScopeSpans(r, ctx, resource));
  }
}

function decodeResource(r: ProtoReader, ctx: DecodeContext, resource: ResourceInfo): void {
  while (r.pos < r.end) {
    const tag = r.uint32();
    if (tag >>> 3 === 1) {
      expectWire('Resource.attributes', tag & 7, LEN);
      const end = r.delimitedEnd();
      decodeKeyValue(r, end, ctx, resource.attributes);
    } else r.skip(tag & 7);
  }
}

function decodeScopeSpans(r: ProtoReader, ctx: DecodeContext, resource: ResourceInfo): void {
  const scope: ScopeInfo = { name: '', version: '' };
  const spans: number[] = [];
  while (r.pos < r.end) {
    const tag = r.uint32();
    const field = tag >>> 3;
    if (field === 1) {
      expectWire('ScopeSpans.scope', tag & 7, LEN);
      const end = r.delimitedEnd();
      withEnd(r, end, () => decodeScope(r, scope));
    } else if (field === 2) {
      expectWire('ScopeSpans.spans', tag & 7, LEN);
      const end = r.delimitedEnd();
      ctx.countSpan();
      spans.push(r.pos, end);
      r.pos = end;
    } else r.skip(tag & 7);
  }
  for (let i = 0; i < spans.length; i += 2) {
    r.pos = spans[i]!;
    const outer = r.end;
    r.end = spans[i + 1]!;
    decodeSpan(r, ctx, resource, scope);
    r.end = outer;
  }
}

function decodeScope(r: ProtoReader, scope: ScopeInfo): void {
  while (r.pos < r.end) {
    const tag = r.uint32();
    const field = tag >>> 3;
    if (field === 1 && (tag & 7) === LEN) scope.name = r.string();
    else if (field === 2 && (tag & 7) === LEN) scope.version = r.string();
    else r.skip(tag & 7);
  }
}

function decodeSpan(r: ProtoReader, ctx: DecodeContext, resource: ResourceInfo, scope: ScopeInfo): void {
  let traceId = '';
  let spanId = '';
  let parentSpanId = '';
  let traceState = '';
  let name = '';
  let kind = 0;
  let start: UnixNanos = ZERO_TIME;
  let end: UnixNanos = ZERO_TIME;
  const attributes: Record<string, string> = {};
  // Most spans have no events or links: they share frozen empty arrays until one appears.
  let eventTimes = NONE as string[];
  let eventNames = NONE as string[];
  let eventAttributes = NONE as Record<string, string>[];
  let linkTraceIds = NONE as string[];
  let linkSpanIds = NONE as string[];
  let linkStates = NONE as string[];
  let linkAttributes = NONE as Record<string, string>[];
  let statusCode = 0;
  let statusMessage = '';

  while (r.pos < r.end) {
    const tag = r.uint32();
    const wire = tag & 7;
    switch (tag >>> 3) {
      case 1:
        expectWire('Span.trace_id', wire, LEN);
        traceId = hexId(r);
        break;
      case 2:
        expectWire('Span.span_id', wire, LEN);
        spanId = hexId(r);
        break;
      case 3:
        expectWire('Span.trace_state', wire, LEN);
        traceState = r.string();
        break;
      case 4:
        expectWire('Span.parent_span_id', wire, LEN);
        parentSpanId = hexId(r);
        break;
      case 5:
        expectWire('Span.name', wire, LEN);
        name = r.string();
        break;
      case 6:
        expectWire('Span.kind', wire, VARINT);
        kind = r.uint32() | 0;
        break;
      case 7: {
        expectWire('Span.start_time_unix_nano', wire, I64);
        const [lo, hi] = r.fixed64();
        start = nanosFromHalves(lo, hi);
        break;
      }
      case 8: {
        expectWire('Span.end_time_unix_nano', wire, I64);
        const [lo, hi] = r.fixed64();
        end = nanosFromHalves(lo, hi);
        break;
      }
      case 9: {
        expectWire('Span.attributes', wire, LEN);
        const e = r.delimitedEnd();
        decodeKeyValue(r, e, ctx, attributes);
        break;
      }
      case 11: {
        expectWire('Span.events', wire, LEN);
        const e = r.delimitedEnd();
        if (eventNames === NONE) {
          eventTimes = [];
          eventNames = [];
          eventAttributes = [];
        }
        withEnd(r, e, () => decodeEvent(r, ctx, eventTimes, eventNames, eventAttributes));
        break;
      }
      case 13: {
        expectWire('Span.links', wire, LEN);
        const e = r.delimitedEnd();
        if (linkTraceIds === NONE) {
          linkTraceIds = [];
          linkSpanIds = [];
          linkStates = [];
          linkAttributes = [];
        }
        withEnd(r, e, () => decodeLink(r, ctx, linkTraceIds, linkSpanIds, linkStates, linkAttributes));
        break;
      }
      case 15: {
        expectWire('Span.status', wire, LEN);
        const e = r.delimitedEnd();
        const outer = r.end;
        r.end = e;
        while (r.pos < r.end) {
          const t = r.uint32();
          if (t === ((2 << 3) | LEN)) statusMessage = r.string();
          else if (t === ((3 << 3) | VARINT)) statusCode = r.uint32() | 0;
          else r.skip(t & 7);
        }
        r.pos = e;
        r.end = outer;
        break;
      }
      default:
        r.skip(wire);
    }
  }

  const problem = idProblem(traceId, spanId, parentSpanId);
  if (problem) {
    ctx.reject(problem);
    return;
  }
  const times = normalizeSpanTimes(start, end, ctx.nowSec);
  if (typeof times === 'string') {
    ctx.reject(times);
    return;
  }
  start = times.start;
  end = times.end;
  const row: TraceRow = {
    Timestamp: toDateTime64(start),
    TraceId: traceId,
    SpanId: spanId,
    ParentSpanId: parentSpanId,
    TraceState: traceState,
    SpanName: name,
    SpanKind: spanKindName(kind),
    ServiceName: resource.serviceName,
    ResourceAttributes: resource.attributes,
    ScopeName: scope.name,
    ScopeVersion: scope.version,
    SpanAttributes: attributes,
    Duration: durationNanos(start, end),
    StatusCode: statusCodeName(statusCode),
    StatusMessage: statusMessage,
    'Events.Timestamp': eventTimes,
    'Events.Name': eventNames,
    'Events.Attributes': eventAttributes,
    'Links.TraceId': linkTraceIds,
    'Links.SpanId': linkSpanIds,
    'Links.TraceState': linkStates,
    'Links.Attributes': linkAttributes,
  };
  ctx.addRow(row);
}

const ZERO_TIME: UnixNanos = { sec: 0, ns: 0 };
// Frozen, so a caller that tried to push into a shared empty array would throw, not corrupt rows.
const NONE = Object.freeze([]) as unknown as never[];

function decodeEvent(
  r: ProtoReader,
  ctx: DecodeContext,
  times: string[],
  names: string[],
  attrs: Record<string, string>[],
): void {
  let time = ZERO_TIME;
  let name = '';
  const attributes: Record<string, string> = {};
  while (r.pos < r.end) {
    const tag = r.uint32();
    const field = tag >>> 3;
    if (field === 1) {
      expectWire('Event.time_unix_nano', tag & 7, I64);
      const [lo, hi] = r.fixed64();
      time = acceptedEventTime(nanosFromHalves(lo, hi), ctx.nowSec);
    } else if (field === 2) {
      expectWire('Event.name', tag & 7, LEN);
      name = r.string();
    } else if (field === 3) {
      expectWire('Event.attributes', tag & 7, LEN);
      const e = r.delimitedEnd();
      decodeKeyValue(r, e, ctx, attributes);
    } else r.skip(tag & 7);
  }
  times.push(toDateTime64(time));
  names.push(name);
  attrs.push(attributes);
}

function decodeLink(
  r: ProtoReader,
  ctx: DecodeContext,
  traceIds: string[],
  spanIds: string[],
  states: string[],
  attrs: Record<string, string>[],
): void {
  let traceId = '';
  let spanId = '';
  let state = '';
  const attributes: Record<string, string> = {};
  while (r.pos < r.end) {
    const tag = r.uint32();
    const field = tag >>> 3;
    if (field === 1) {
      expectWire('Link.trace_id', tag & 7, LEN);
      traceId = hexId(r);
    } else if (field === 2) {
      expectWire('Link.span_id', tag & 7, LEN);
      spanId = hexId(r);
    } else if (field === 3) {
      expectWire('Link.trace_state', tag & 7, LEN);
      state = r.string();
    } else if (field === 4) {
      expectWire('Link.attributes', tag & 7, LEN);
      const e = r.delimitedEnd();
      decodeKeyValue(r, e, ctx, attributes);
    } else r.skip(tag & 7);
  }
  traceIds.push(traceId);
  spanIds.push(spanId);
  states.push(state);
  attrs.push(attributes);
}

/** Hex of an id field; all-zero ids become '' like the exporter's `TraceIDToHexOrEmptyString`. */
export function hexId(r: ProtoReader): string {
  const end = r.delimitedEnd();
  const start = r.pos;
  r.pos = end;
  const buf = r.buf;
  for (let i = start; i < end; i++) {
    if (buf[i] !== 0) return r.hex(start, end);
  }
  return '';
}

/**
 * One KeyValue into `target`, its value stringified as pcommon `AsString` does. Also read by the
 * metrics decoder (src/metrics-ingest), so data point attributes get the same bounds as spans'.
 */
export function decodeKeyValue(
  r: ProtoReader,
  end: number,
  ctx: DecodeContext,
  target: Record<string, string>,
): void {
  const outer = r.end;
  r.end = end;
  let key = '';
  let value = '';
  while (r.pos < r.end) {
    const tag = r.uint32();
    const field = tag >>> 3;
    if (field === 1) {
      expectWire('KeyValue.key', tag & 7, LEN);
      key = r.key();
    } else if (field === 2) {
      expectWire('KeyValue.value', tag & 7, LEN);
      const e = r.delimitedEnd();
      const outer = r.end;
      r.end = e;
      value = decodeScalarOrString(r, ctx);
      r.pos = e;
      r.end = outer;
    } else r.skip(tag & 7);
  }
  r.pos = end;
  r.end = outer;
  setAttribute(target, key, ctx.bound(value));
}

/** AnyValue → string, without building a tree for the scalar variants (the common case). */
export function decodeScalarOrString(r: ProtoReader, ctx: DecodeContext): string {
  const start = r.pos;
  let out = '';
  while (r.pos < r.end) {
    const tag = r.uint32();
    switch (tag) {
      case (1 << 3) | LEN:
        out = r.string();
        break;
      case (2 << 3) | VARINT:
        out = r.uint32() !== 0 ? 'true' : 'false';
        break;
      case (3 << 3) | VARINT: {
        const [lo, hi] = r.varint64();
        out = int64String(lo, hi);
        break;
      }
      case (4 << 3) | I64:
        out = goFloatString(r.double());
        break;
      case (5 << 3) | LEN:
      case (6 << 3) | LEN:
      case (7 << 3) | LEN:
        r.pos = start;
        return anyValueToString(decodeAnyValue(r, ctx, 1));
      default:
        skipAnyValueField(r, tag);
    }
  }
  return out;
}

function skipAnyValueField(r: ProtoReader, tag: number): void {
  const field = tag >>> 3;
  if (field >= 1 && field <= 7) {
    throw new OtlpDecodeError(`invalid protobuf: AnyValue field ${field} has wire type ${tag & 7}`);
  }
  r.skip(tag & 7);
}

function decodeAnyValue(r: ProtoReader, ctx: DecodeContext, depth: number): AnyValue {
  ctx.checkDepth(depth);
  let value: AnyValue = { t: 'empty' };
  while (r.pos < r.end) {
    const tag = r.uint32();
    switch (tag) {
      case (1 << 3) | LEN:
        value = { t: 'str', v: r.string() };
        break;
      case (2 << 3) | VARINT:
        value = { t: 'bool', v: r.uint32() !== 0 };
        break;
      case (3 << 3) | VARINT: {
        const [lo, hi] = r.varint64();
        value = { t: 'int', v: int64String(lo, hi) };
        break;
      }
      case (4 << 3) | I64:
        value = { t: 'double', v: r.double() };
        break;
      case (5 << 3) | LEN: {
        const e = r.delimitedEnd();
        const items: AnyValue[] = [];
        withEnd(r, e, () => {
          while (r.pos < r.end) {
            const t = r.uint32();
            if (t === ((1 << 3) | LEN)) {
              const ie = r.delimitedEnd();
              withEnd(r, ie, () => items.push(decodeAnyValue(r, ctx, depth + 1)));
            } else r.skip(t & 7);
          }
        });
        value = { t: 'array', v: items };
        break;
      }
      case (6 << 3) | LEN: {
        const e = r.delimitedEnd();
        const entries: Array<[string, AnyValue]> = [];
        withEnd(r, e, () => {
          while (r.pos < r.end) {
            const t = r.uint32();
            if (t === ((1 << 3) | LEN)) {
              const ie = r.delimitedEnd();
              withEnd(r, ie, () => entries.push(decodeNestedKeyValue(r, ctx, depth + 1)));
            } else r.skip(t & 7);
          }
        });
        value = { t: 'kvlist', v: entries };
        break;
      }
      case (7 << 3) | LEN:
        value = { t: 'bytes', v: r.bytes() };
        break;
      default:
        skipAnyValueField(r, tag);
    }
  }
  return value;
}

function decodeNestedKeyValue(r: ProtoReader, ctx: DecodeContext, depth: number): [string, AnyValue] {
  let key = '';
  let value: AnyValue = { t: 'empty' };
  while (r.pos < r.end) {
    const tag = r.uint32();
    if (tag === ((1 << 3) | LEN)) key = r.string();
    else if (tag === ((2 << 3) | LEN)) {
      const e = r.delimitedEnd();
      withEnd(r, e, () => {
        value = decodeAnyValue(r, ctx, depth);
      });
    } else r.skip(tag & 7);
  }
  return [key, value];
}

import type { TraceRow } from '@faultline/sql';
import type { SpanLogJoin } from '../logs-ingest/span-log-join.js';
import {
  DecodeContext,
  type DecodeLimits,
  type DecodeResult,
  idProblem,
  setAttribute,
} from './decode-context.js';
import { type AnyValue, anyValueToString } from './go-json.js';
import { OtlpDecodeError } from './otlp-decode-error.js';
import { quoteLongIntegers } from './quote-long-integers.js';
import { spanKindFromJson, spanKindName, statusCodeFromJson, statusCodeName } from './span-enums.js';
import { acceptedEventTime, normalizeSpanTimes } from './span-times.js';
import { clip, durationNanos, nanosFromJson, toDateTime64 } from './unix-nanos.js';

/*
 * OTLP/JSON (the protobuf JSON mapping with the OTLP exceptions: ids are hex, not base64).
 * Field names are accepted in lowerCamelCase and in the proto's snake_case; enums as ints or names;
 * int64 as strings or numbers (exact to the last digit, see quote-long-integers.ts). A wrong JSON
 * type is a 400 naming the path.
 */

export type Json = Record<string, unknown>;

export function decodeTracesJson(text: string, limits: DecodeLimits, join?: SpanLogJoin): DecodeResult {
  let parsed: unknown;
  try {
    // Int64 sent as 16+ digit numbers keep every digit: they reach the walk below as strings.
    parsed = JSON.parse(quoteLongIntegers(text));
  } catch (err) {
    throw new OtlpDecodeError(`invalid JSON: ${(err as Error).message}`);
  }
  // The root must be an object: `null`, `[]` or `5` is no ExportTraceServiceRequest, and storing
  // nothing with a 200 would tell a broken client all is well. (Inner nulls still read as absent.)
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new OtlpDecodeError('$: expected an ExportTraceServiceRequest object');
  }
  const ctx = new DecodeContext(limits, join);
  const root = parsed as Json;
  const resourceSpans = array(get(root, 'resourceSpans', 'resource_spans'), 'resourceSpans');
  for (let i = 0; i < resourceSpans.length; i++) {
    decodeResourceSpans(object(resourceSpans[i], `resourceSpans[${i}]`), `resourceSpans[${i}]`, ctx);
  }
  return ctx.result();
}

export function get(o: Json, camel: string, snake: string): unknown {
  const v = o[camel];
  return v === undefined ? o[snake] : v;
}

export function object(v: unknown, path: string): Json {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw new OtlpDecodeError(`${path}: expected an object`);
  return v as Json;
}

export function array(v: unknown, path: string): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new OtlpDecodeError(`${path}: expected an array`);
  return v;
}

/**
 * A JSON string, well-formed: a lone UTF-16 surrogate (which JSON allows and UTF-8 cannot carry)
 * becomes U+FFFD, as protobuf's UTF-8 decoding does with invalid bytes.
 */
export function string(v: unknown, path: string): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new OtlpDecodeError(`${path}: expected a string`);
  return v.isWellFormed() ? v : v.toWellFormed();
}

function decodeResourceSpans(rs: Json, path: string, ctx: DecodeContext): void {
  const resource = object(rs.resource, `${path}.resource`);
  const resourceAttributes = attributes(resource.attributes, `${path}.resource.attributes`, ctx);
  const serviceName = resourceAttributes['service.name'] ?? '';
  const scopeSpans = array(get(rs, 'scopeSpans', 'scope_spans'), `${path}.scopeSpans`);
  for (let i = 0; i < scopeSpans.length; i++) {
    const sp = `${path}.scopeSpans[${i}]`;
    const ss = object(scopeSpans[i], sp);
    const scope = object(ss.scope, `${sp}.scope`);
    const scopeName = string(scope.name, `${sp}.scope.name`);
    const scopeVersion = string(scope.version, `${sp}.scope.version`);
    const spans = array(ss.spans, `${sp}.spans`);
    for (let j = 0; j < spans.length; j++) {
      ctx.countSpan();
      const row = decodeSpan(object(spans[j], `${sp}.spans[${j}]`), `${sp}.spans[${j}]`, ctx);
      if (!row) continue;
      row.ServiceName = serviceName;
      row.ResourceAttributes = resourceAttributes;
      row.ScopeName = scopeName;
      row.ScopeVersion = scopeVersion;
      ctx.addRow(row);
    }
  }
}

function decodeSpan(span: Json, path: string, ctx: DecodeContext): TraceRow | undefined {
  const kind = spanKindFromJson(span.kind);
  if (kind === undefined) throw new OtlpDecodeError(`${path}.kind: expected a SpanKind number or name`);
  const status = object(span.status, `${path}.status`);
  const code = statusCodeFromJson(status.code);
  if (code === undefined)
    throw new OtlpDecodeError(`${path}.status.code: expected a StatusCode number or name`);
  const times = normalizeSpanTimes(
    nanosFromJson(get(span, 'startTimeUnixNano', 'start_time_unix_nano'), `${path}.startTimeUnixNano`),
    nanosFromJson(get(span, 'endTimeUnixNano', 'end_time_unix_nano'), `${path}.endTimeUnixNano`),
    ctx.nowSec,
  );
  const start = typeof times === 'string' ? { sec: 0, ns: 0 } : times.start;
  const end = typeof times === 'string' ? start : times.end;
  const traceId = hexId(get(span, 'traceId', 'trace_id'), `${path}.traceId`);
  const spanId = hexId(get(span, 'spanId', 'span_id'), `${path}.spanId`);
  const parentSpanId = hexId(get(span, 'parentSpanId', 'parent_span_id'), `${path}.parentSpanId`);

  const row: TraceRow = {
    Timestamp: toDateTime64(start),
    TraceId: traceId,
    SpanId: spanId,
    ParentSpanId: parentSpanId,
    TraceState: string(get(span, 'traceState', 'trace_state'), `${path}.traceState`),
    SpanName: string(span.name, `${path}.name`),
    SpanKind: spanKindName(kind),
    ServiceName: '',
    ResourceAttributes: {},
    ScopeName: '',
    ScopeVersion: '',
    SpanAttributes: attributes(span.attributes, `${path}.attributes`, ctx),
    Duration: durationNanos(start, end),
    StatusCode: statusCodeName(code),
    StatusMessage: string(status.message, `${path}.status.message`),
    'Events.Timestamp': [],
    'Events.Name': [],
    'Events.Attributes': [],
    'Links.TraceId': [],
    'Links.SpanId': [],
    'Links.TraceState': [],
    'Links.Attributes': [],
  };
  const events = array(span.events, `${path}.events`);
  for (let i = 0; i < events.length; i++) {
    const ep = `${path}.events[${i}]`;
    const event = object(events[i], ep);
    row['Events.Timestamp'].push(
      toDateTime64(
        acceptedEventTime(nanosFromJson(get(event, 'timeUnixNano', 'time_unix_nano'), ep), ctx.nowSec),
      ),
    );
    row['Events.Name'].push(string(event.name, `${ep}.name`));
    row['Events.Attributes'].push(attributes(event.attributes, `${ep}.attributes`, ctx));
  }
  const links = array(span.links, `${path}.links`);
  for (let i = 0; i < links.length; i++) {
    const lp = `${path}.links[${i}]`;
    const link = object(links[i], lp);
    row['Links.TraceId'].push(hexId(get(link, 'traceId', 'trace_id'), `${lp}.traceId`));
    row['Links.SpanId'].push(hexId(get(link, 'spanId', 'span_id'), `${lp}.spanId`));
    row['Links.TraceState'].push(string(get(link, 'traceState', 'trace_state'), `${lp}.traceState`));
    row['Links.Attributes'].push(attributes(link.attributes, `${lp}.attributes`, ctx));
  }

  const problem = idProblem(traceId, spanId, parentSpanId) || (typeof times === 'string' ? times : '');
  if (problem) {
    ctx.reject(problem);
    return undefined;
  }
  return row;
}

const HEX = /^[0-9a-fA-F]*$/;
const ZEROS = /^0*$/;

/** Hex id, lower-cased; all zeros → '' (as the exporter writes them). A non-hex string → 400. */
export function hexId(v: unknown, path: string): string {
  const s = string(v, path);
  if (!HEX.test(s) || s.length % 2 !== 0) {
    throw new OtlpDecodeError(
      `${path}: expected a hex string (OTLP/JSON ids are hex, not base64), got "${clip(s)}"`,
    );
  }
  return ZEROS.test(s) ? '' : s.toLowerCase();
}

export function attributes(v: unknown, path: string, ctx: DecodeContext): Record<string, string> {
  const list = array(v, path);
  const out: Record<string, string> = {};
  for (let i = 0; i < list.length; i++) {
    const kv = object(list[i], `${path}[${i}]`);
    const key = string(kv.key, `${path}[${i}].key`);
    setAttribute(out, key, ctx.bound(anyValueToString(anyValue(kv.value, `${path}[${i}].value`, ctx, 1))));
  }
  return out;
}

export function anyValue(v: unknown, path: string, ctx: DecodeContext, depth: number): AnyValue {
  ctx.checkDepth(depth);
  const o = object(v, path);
  let value: AnyValue = { t: 'empty' };
  for (const key in o) {
    const x = o[key];
    if (x === undefined || x === null) continue;
    switch (key) {
      case 'stringValue':
      case 'string_value':
        value = { t: 'str', v: string(x, `${path}.stringValue`) };
        break;
      case 'boolValue':
      case 'bool_value':
        if (typeof x !== 'boolean') throw new OtlpDecodeError(`${path}.boolValue: expected true or false`);
        value = { t: 'bool', v: x };
        break;
      case 'intValue':
      case 'int_value':
        value = { t: 'int', v: int64Json(x, `${path}.intValue`) };
        break;
      case 'doubleValue':
      case 'double_value':
        value = { t: 'double', v: doubleJson(x, `${path}.doubleValue`) };
        break;
      case 'bytesValue':
      case 'bytes_value':
        value = { t: 'bytes', v: base64Json(x, `${path}.bytesValue`) };
        break;
      case 'arrayValue':
      case 'array_value': {
        const values = array(object(x, `${path}.arrayValue`).values, `${path}.arrayValue.values`);
        value = {
          t: 'array',
          v: values.map((item, i) => anyValue(item, `${path}.arrayValue.values[${i}]`, ctx, depth + 1)),
        };
        break;
      }
      case 'kvlistValue':
      case 'kvlist_value': {
        const values = array(object(x, `${path}.kvlistValue`).values, `${path}.kvlistValue.values`);
        value = {
          t: 'kvlist',
          v: values.map((item, i): [string, AnyValue] => {
            const ip = `${path}.kvlistValue.values[${i}]`;
            const kv = object(item, ip);
            return [string(kv.key, `${ip}.key`), anyValue(kv.value, `${ip}.value`, ctx, depth + 1)];
          }),
        };
        break;
      }
    }
  }
  return value;
}

const INT64 = /^-?\d{1,19}$/;

export function int64Json(x: unknown, path: string): string {
  if (typeof x === 'number' && Number.isInteger(x)) return BigInt(x).toString();
  if (typeof x === 'string' && INT64.test(x)) {
    const n = BigInt(x);
    if (n >= -(2n ** 63n) && n < 2n ** 63n) return n.toString();
  }
  throw new OtlpDecodeError(`${path}: expected a 64-bit integer as a string or number`);
}

export function doubleJson(x: unknown, path: string): number {
  if (typeof x === 'number') return x;
  if (x === 'NaN') return Number.NaN;
  if (x === 'Infinity') return Number.POSITIVE_INFINITY;
  if (x === '-Infinity') return Number.NEGATIVE_INFINITY;
  if (typeof x === 'string' && x.trim() !== '' && Number.isFinite(Number(x))) return Number(x);
  throw new OtlpDecodeError(`${path}: expected a number`);
}

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

function base64Json(x: unknown, path: string): Uint8Array {
  if (typeof x !== 'string' || !BASE64.test(x)) throw new OtlpDecodeError(`${path}: expected base64 bytes`);
  return Buffer.from(x, 'base64');
}

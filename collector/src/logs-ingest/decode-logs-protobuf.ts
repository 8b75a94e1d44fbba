import type { DecodeLimits } from '../otlp/decode-context.js';
import { decodeKeyValue, decodeScalarOrString, expectWire, hexId, withEnd } from '../otlp/decode-protobuf.js';
import { ProtoReader } from '../otlp/proto-reader.js';
import { nanosFromHalves, type UnixNanos } from '../otlp/unix-nanos.js';
import type { LogRow } from './log-row.js';
import { LogsDecodeContext, type LogsDecodeResult } from './logs-decode-context.js';
import type { SpanLogJoin } from './span-log-join.js';

/*
 * ExportLogsServiceRequest (opentelemetry-proto logs/v1, common/v1, resource/v1) read with the trace
 * decoder's bounds-checked wire reader, attribute and AnyValue decoding, straight into rows. Field
 * numbers are from logs.proto; unknown fields are skipped as protobuf requires.
 */

const LEN = 2;
const VARINT = 0;
const I64 = 1;
const I32 = 5;

const ZERO_TIME: UnixNanos = { sec: 0, ns: 0 };

interface ResourceInfo {
  attributes: Record<string, string>;
  schemaUrl: string;
}

interface ScopeInfo {
  name: string;
  version: string;
  attributes: Record<string, string>;
  schemaUrl: string;
}

export function decodeLogsProtobuf(body: Buffer, limits: DecodeLimits, join?: SpanLogJoin): LogsDecodeResult {
  const ctx = new LogsDecodeContext(limits, join);
  const r = new ProtoReader(body);
  while (r.pos < r.end) {
    const tag = r.uint32();
    if (tag === ((1 << 3) | LEN)) {
      const end = r.delimitedEnd();
      withEnd(r, end, () => decodeResourceLogs(r, ctx));
    } else r.skip(tag & 7);
  }
  return ctx.result();
}

function decodeResourceLogs(r: ProtoReader, ctx: LogsDecodeContext): void {
  const resource: ResourceInfo = { attributes: {}, schemaUrl: '' };
  // `resource` may follow `scope_logs` on the wire; rows need it, so scope_logs wait.
  const scopes: number[] = [];
  while (r.pos < r.end) {
    const tag = r.uint32();
    const field = tag >>> 3;
    if (field === 1) {
      expectWire('ResourceLogs.resource', tag & 7, LEN);
      const end = r.delimitedEnd();
      withEnd(r, end, () => {
        while (r.pos < r.end) {
          const t = r.uint32();
          if (t >>> 3 === 1) {
            expectWire('Resource.attributes', t & 7, LEN);
            decodeKeyValue(r, r.delimitedEnd(), ctx.values, resource.attributes);
          } else r.skip(t & 7);
        }
      });
    } else if (field === 2) {
      expectWire('ResourceLogs.scope_logs', tag & 7, LEN);
      const end = r.delimitedEnd();
      scopes.push(r.pos, end);
      r.pos = end;
    } else if (field === 3) {
      expectWire('ResourceLogs.schema_url', tag & 7, LEN);
      resource.schemaUrl = r.string();
    } else r.skip(tag & 7);
  }
  for (let i = 0; i < scopes.length; i += 2) {
    r.pos = scopes[i]!;
    withEnd(r, scopes[i + 1]!, () => decodeScopeLogs(r, ctx, resource));
  }
}

function decodeScopeLogs(r: ProtoReader, ctx: LogsDecodeContext, resource: ResourceInfo): void {
  const scope: ScopeInfo = { name: '', version: '', attributes: {}, schemaUrl: '' };
  const records: number[] = [];
  while (r.pos < r.end) {
    const tag = r.uint32();
    const field = tag >>> 3;
    if (field === 1) {
      expectWire('ScopeLogs.scope', tag & 7, LEN);
      const end = r.delimitedEnd();
      withEnd(r, end, () => decodeScope(r, ctx, scope));
    } else if (field === 2) {
      expectWire('ScopeLogs.log_records', tag & 7, LEN);
      const end = r.delimitedEnd();
      ctx.countRecord();
      records.push(r.pos, end);
      r.pos = end;
    } else if (field === 3) {
      expectWire('ScopeLogs.schema_url', tag & 7, LEN);
      scope.schemaUrl = r.string();
    } else r.skip(tag & 7);
  }
  for (let i = 0; i < records.length; i += 2) {
    r.pos = records[i]!;
    withEnd(r, records[i + 1]!, () => decodeRecord(r, ctx, resource, scope));
  }
}

function decodeScope(r: ProtoReader, ctx: LogsDecodeContext, scope: ScopeInfo): void {
  while (r.pos < r.end) {
    const tag = r.uint32();
    const field = tag >>> 3;
    if (field === 1 && (tag & 7) === LEN) scope.name = r.string();
    else if (field === 2 && (tag & 7) === LEN) scope.version = r.string();
    else if (field === 3) {
      expectWire('InstrumentationScope.attributes', tag & 7, LEN);
      decodeKeyValue(r, r.delimitedEnd(), ctx.values, scope.attributes);
    } else r.skip(tag & 7);
  }
}

function decodeRecord(
  r: ProtoReader,
  ctx: LogsDecodeContext,
  resource: ResourceInfo,
  scope: ScopeInfo,
): void {
  let time = ZERO_TIME;
  let observedTime = ZERO_TIME;
  const row: LogRow = {
    Timestamp: '',
    TraceId: '',
    SpanId: '',
    TraceFlags: 0,
    SeverityText: '',
    SeverityNumber: 0,
    ServiceName: resource.attributes['service.name'] ?? '',
    Body: '',
    ResourceSchemaUrl: resource.schemaUrl,
    // Each record's maps are its own: classification and redaction write into them.
    ResourceAttributes: { ...resource.attributes },
    ScopeSchemaUrl: scope.schemaUrl,
    ScopeName: scope.name,
    ScopeVersion: scope.version,
    ScopeAttributes: { ...scope.attributes },
    LogAttributes: {},
    EventName: '',
  };
  while (r.pos < r.end) {
    const tag = r.uint32();
    const wire = tag & 7;
    switch (tag >>> 3) {
      case 1: {
        expectWire('LogRecord.time_unix_nano', wire, I64);
        const [lo, hi] = r.fixed64();
        time = nanosFromHalves(lo, hi);
        break;
      }
      case 2:
        expectWire('LogRecord.severity_number', wire, VARINT);
        row.SeverityNumber = ctx.severity(r.uint32() | 0);
        break;
      case 3:
        expectWire('LogRecord.severity_text', wire, LEN);
        row.SeverityText = r.string();
        break;
      case 5: {
        expectWire('LogRecord.body', wire, LEN);
        const end = r.delimitedEnd();
        withEnd(r, end, () => {
          row.Body = ctx.values.bound(decodeScalarOrString(r, ctx.values));
        });
        break;
      }
      case 6:
        expectWire('LogRecord.attributes', wire, LEN);
        decodeKeyValue(r, r.delimitedEnd(), ctx.values, row.LogAttributes);
        break;
      case 8:
        expectWire('LogRecord.flags', wire, I32);
        row.TraceFlags = r.fixed32() & 0xff;
        break;
      case 9:
        expectWire('LogRecord.trace_id', wire, LEN);
        row.TraceId = hexId(r);
        break;
      case 10:
        expectWire('LogRecord.span_id', wire, LEN);
        row.SpanId = hexId(r);
        break;
      case 11: {
        expectWire('LogRecord.observed_time_unix_nano', wire, I64);
        const [lo, hi] = r.fixed64();
        observedTime = nanosFromHalves(lo, hi);
        break;
      }
      case 12:
        expectWire('LogRecord.event_name', wire, LEN);
        row.EventName = r.string();
        break;
      default:
        r.skip(wire);
    }
  }
  ctx.addRecord({ row, time, observedTime });
}

import type { DecodeLimits } from '../otlp/decode-context.js';
import { anyValue, array, attributes, get, hexId, type Json, object, string } from '../otlp/decode-json.js';
import { anyValueToString } from '../otlp/go-json.js';
import { OtlpDecodeError } from '../otlp/otlp-decode-error.js';
import { quoteLongIntegers } from '../otlp/quote-long-integers.js';
import { nanosFromJson } from '../otlp/unix-nanos.js';
import type { LogRow } from './log-row.js';
import { LogsDecodeContext, type LogsDecodeResult } from './logs-decode-context.js';
import { severityNumberFromName } from './severity-number.js';
import type { SpanLogJoin } from './span-log-join.js';

/*
 * ExportLogsServiceRequest in OTLP/JSON, walked with the trace decoder's type-checked readers:
 * lowerCamelCase or snake_case names, the severity as a number or its enum name, int64 as strings
 * or numbers (exact to the last digit, see quote-long-integers.ts), hex ids. A wrong JSON type is a
 * 400 naming the path.
 */

interface ResourceScope {
  serviceName: string;
  resourceAttributes: Record<string, string>;
  resourceSchemaUrl: string;
  scopeName: string;
  scopeVersion: string;
  scopeAttributes: Record<string, string>;
  scopeSchemaUrl: string;
}

export function decodeLogsJson(text: string, limits: DecodeLimits, join?: SpanLogJoin): LogsDecodeResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(quoteLongIntegers(text));
  } catch (err) {
    throw new OtlpDecodeError(`invalid JSON: ${(err as Error).message}`);
  }
  // As for traces: `null`, `[]` or `5` is no request, and a 200 would tell a broken client all is well.
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new OtlpDecodeError('$: expected an ExportLogsServiceRequest object');
  }
  const ctx = new LogsDecodeContext(limits, join);
  const resourceLogs = array(get(parsed as Json, 'resourceLogs', 'resource_logs'), 'resourceLogs');
  for (let i = 0; i < resourceLogs.length; i++) {
    const path = `resourceLogs[${i}]`;
    const rl = object(resourceLogs[i], path);
    const resource = object(rl.resource, `${path}.resource`);
    const resourceAttributes = attributes(resource.attributes, `${path}.resource.attributes`, ctx.values);
    const resourceSchemaUrl = string(get(rl, 'schemaUrl', 'schema_url'), `${path}.schemaUrl`);
    const scopes = array(get(rl, 'scopeLogs', 'scope_logs'), `${path}.scopeLogs`);
    for (let j = 0; j < scopes.length; j++) {
      const sp = `${path}.scopeLogs[${j}]`;
      const sl = object(scopes[j], sp);
      const scope = object(sl.scope, `${sp}.scope`);
      const base: ResourceScope = {
        serviceName: resourceAttributes['service.name'] ?? '',
        resourceAttributes,
        resourceSchemaUrl,
        scopeName: string(scope.name, `${sp}.scope.name`),
        scopeVersion: string(scope.version, `${sp}.scope.version`),
        scopeAttributes: attributes(scope.attributes, `${sp}.scope.attributes`, ctx.values),
        scopeSchemaUrl: string(get(sl, 'schemaUrl', 'schema_url'), `${sp}.schemaUrl`),
      };
      const records = array(get(sl, 'logRecords', 'log_records'), `${sp}.logRecords`);
      for (let k = 0; k < records.length; k++) {
        ctx.countRecord();
        const rp = `${sp}.logRecords[${k}]`;
        decodeRecord(object(records[k], rp), rp, ctx, base);
      }
    }
  }
  return ctx.result();
}

function decodeRecord(rec: Json, path: string, ctx: LogsDecodeContext, base: ResourceScope): void {
  const body = rec.body;
  const row: LogRow = {
    Timestamp: '',
    TraceId: hexId(get(rec, 'traceId', 'trace_id'), `${path}.traceId`),
    SpanId: hexId(get(rec, 'spanId', 'span_id'), `${path}.spanId`),
    TraceFlags: uint32(rec.flags, `${path}.flags`) & 0xff,
    SeverityText: string(get(rec, 'severityText', 'severity_text'), `${path}.severityText`),
    SeverityNumber: ctx.severity(
      severityOf(get(rec, 'severityNumber', 'severity_number'), `${path}.severityNumber`),
    ),
    ServiceName: base.serviceName,
    Body:
      body === undefined || body === null
        ? ''
        : ctx.values.bound(anyValueToString(anyValue(body, `${path}.body`, ctx.values, 1))),
    ResourceSchemaUrl: base.resourceSchemaUrl,
    // Each record's maps are its own: classification and redaction write into them.
    ResourceAttributes: { ...base.resourceAttributes },
    ScopeSchemaUrl: base.scopeSchemaUrl,
    ScopeName: base.scopeName,
    ScopeVersion: base.scopeVersion,
    ScopeAttributes: { ...base.scopeAttributes },
    LogAttributes: attributes(rec.attributes, `${path}.attributes`, ctx.values),
    EventName: string(get(rec, 'eventName', 'event_name'), `${path}.eventName`),
  };
  ctx.addRecord({
    row,
    time: nanosFromJson(get(rec, 'timeUnixNano', 'time_unix_nano'), `${path}.timeUnixNano`),
    observedTime: nanosFromJson(
      get(rec, 'observedTimeUnixNano', 'observed_time_unix_nano'),
      `${path}.observedTimeUnixNano`,
    ),
  });
}

function severityOf(v: unknown, path: string): number {
  if (v === undefined || v === null) return 0;
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string') {
    const n = severityNumberFromName(v);
    if (n !== undefined) return n;
  }
  throw new OtlpDecodeError(`${path}: expected a SeverityNumber number or name`);
}

function uint32(v: unknown, path: string): number {
  if (v === undefined || v === null) return 0;
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffffffff) return v;
  throw new OtlpDecodeError(`${path}: expected an unsigned 32-bit integer`);
}

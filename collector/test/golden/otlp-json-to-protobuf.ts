import protobuf from 'protobufjs/minimal.js';

// An independent OTLP/JSON → protobuf encoder (field numbers from opentelemetry-proto), so each
// golden case checks the protobuf decoder and the JSON decoder against the same expected rows.
// Test inputs only: camelCase names, hex ids, enums as numbers, int64 as strings.

type J = Record<string, unknown>;
type W = protobuf.Writer;

const LEN = 2;
const VARINT = 0;
const I64 = 1;

export function otlpJsonToProtobuf(request: J): Buffer {
  const w = protobuf.Writer.create();
  for (const rs of (request.resourceSpans as J[]) ?? []) message(w, 1, () => resourceSpans(w, rs));
  return Buffer.from(w.finish());
}

export function message(w: W, field: number, body: () => void): void {
  w.uint32((field << 3) | LEN).fork();
  body();
  w.ldelim();
}

export function str(w: W, field: number, v: unknown): void {
  if (typeof v === 'string' && v !== '') w.uint32((field << 3) | LEN).string(v);
}

export function hex(w: W, field: number, v: unknown): void {
  if (typeof v === 'string' && v !== '') w.uint32((field << 3) | LEN).bytes(Buffer.from(v, 'hex'));
}

export function fixed64(w: W, field: number, v: unknown): void {
  if (v === undefined) return;
  const n = BigInt(v as string);
  w.uint32((field << 3) | I64)
    .fixed32(Number(n & 0xffffffffn))
    .fixed32(Number(n >> 32n));
}

export function enumValue(w: W, field: number, v: unknown): void {
  if (typeof v === 'number' && v !== 0) w.uint32((field << 3) | VARINT).int32(v);
}

function resourceSpans(w: W, rs: J): void {
  const resource = rs.resource as J | undefined;
  if (resource) message(w, 1, () => attributes(w, 1, resource.attributes));
  for (const ss of (rs.scopeSpans as J[]) ?? []) {
    message(w, 2, () => {
      const scope = ss.scope as J | undefined;
      if (scope)
        message(w, 1, () => {
          str(w, 1, scope.name);
          str(w, 2, scope.version);
        });
      for (const span of (ss.spans as J[]) ?? []) message(w, 2, () => spanMessage(w, span));
    });
  }
}

function spanMessage(w: W, s: J): void {
  hex(w, 1, s.traceId);
  hex(w, 2, s.spanId);
  str(w, 3, s.traceState);
  hex(w, 4, s.parentSpanId);
  str(w, 5, s.name);
  enumValue(w, 6, s.kind);
  fixed64(w, 7, s.startTimeUnixNano);
  fixed64(w, 8, s.endTimeUnixNano);
  attributes(w, 9, s.attributes);
  for (const e of (s.events as J[]) ?? []) {
    message(w, 11, () => {
      fixed64(w, 1, e.timeUnixNano);
      str(w, 2, e.name);
      attributes(w, 3, e.attributes);
    });
  }
  for (const l of (s.links as J[]) ?? []) {
    message(w, 13, () => {
      hex(w, 1, l.traceId);
      hex(w, 2, l.spanId);
      str(w, 3, l.traceState);
      attributes(w, 4, l.attributes);
    });
  }
  const status = s.status as J | undefined;
  if (status)
    message(w, 15, () => {
      str(w, 2, status.message);
      enumValue(w, 3, status.code);
    });
}

export function attributes(w: W, field: number, list: unknown): void {
  for (const kv of (list as J[]) ?? []) message(w, field, () => keyValue(w, kv));
}

function keyValue(w: W, kv: J): void {
  str(w, 1, kv.key);
  message(w, 2, () => anyValue(w, kv.value as J));
}

export function anyValue(w: W, v: J): void {
  if ('stringValue' in v) w.uint32((1 << 3) | LEN).string(v.stringValue as string);
  else if ('boolValue' in v) w.uint32((2 << 3) | VARINT).bool(v.boolValue as boolean);
  else if ('intValue' in v) w.uint32((3 << 3) | VARINT).int64(String(v.intValue) as unknown as number);
  else if ('doubleValue' in v) w.uint32((4 << 3) | I64).double(Number(v.doubleValue));
  else if ('arrayValue' in v) {
    const values = ((v.arrayValue as J).values as J[]) ?? [];
    message(w, 5, () => {
      for (const item of values) message(w, 1, () => anyValue(w, item));
    });
  } else if ('kvlistValue' in v) {
    const values = ((v.kvlistValue as J).values as J[]) ?? [];
    message(w, 6, () => {
      for (const item of values) message(w, 1, () => keyValue(w, item));
    });
  } else if ('bytesValue' in v) w.uint32((7 << 3) | LEN).bytes(Buffer.from(v.bytesValue as string, 'base64'));
}

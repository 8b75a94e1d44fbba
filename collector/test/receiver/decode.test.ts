import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import protobuf from 'protobufjs/minimal.js';
import { describe, expect, it } from 'vitest';
import { decodeTraces, OtlpDecodeError } from '../../src/index.js';
import { makeSpans } from './helpers/make-spans.js';
import { jsonRequest } from './helpers/otlp-client.js';

const limits = { maxSpansPerRequest: 100, maxAttributeValueLength: 1000, maxAnyValueDepth: 8 };
const TRACE = '5b8efff798038103d269b633813fc60c';
const SPAN = 'eee19b7ec3c1b174';

function jsonSpan(extra: object = {}) {
  return {
    traceId: TRACE,
    spanId: SPAN,
    name: 'op',
    startTimeUnixNano: '1732886400123456789',
    endTimeUnixNano: '1732886400223456789',
    ...extra,
  };
}

function decodeJson(spans: object[]) {
  return decodeTraces(Buffer.from(jsonRequest('svc', spans)), 'json', limits);
}

function attr(value: object) {
  return decodeJson([jsonSpan({ attributes: [{ key: 'k', value }] })]).rows[0]!.SpanAttributes.k;
}

describe('attribute values stringify like pcommon Value.AsString', () => {
  it.each([
    [{ stringValue: 'plain' }, 'plain'],
    [{ boolValue: true }, 'true'],
    [{ boolValue: false }, 'false'],
    [{ intValue: '-9223372036854775808' }, '-9223372036854775808'],
    [{ intValue: 42 }, '42'],
    [{ doubleValue: 1.5 }, '1.5'],
    [{ doubleValue: 1e21 }, '1e+21'],
    [{ doubleValue: 1e-7 }, '1e-7'],
    [{ doubleValue: 100 }, '100'],
    [{ doubleValue: 'NaN' }, 'json: unsupported value: NaN'],
    [{ doubleValue: '-Infinity' }, 'json: unsupported value: -Inf'],
    [{ bytesValue: 'AQID' }, 'AQID'],
    [{}, ''],
    [
      {
        arrayValue: {
          values: [{ stringValue: 'a<b>&' }, { intValue: '1' }, { boolValue: true }, { doubleValue: 0.5 }],
        },
      },
      '["a\\u003cb\\u003e\\u0026",1,true,0.5]',
    ],
    [
      {
        kvlistValue: {
          values: [
            { key: 'z', value: { intValue: '1' } },
            { key: 'a', value: { arrayValue: { values: [] } } },
          ],
        },
      },
      '{"a":[],"z":1}',
    ],
    [{ arrayValue: { values: [{ bytesValue: 'AQID' }, {}] } }, '["AQID",null]'],
  ])('%j → %s', (value, expected) => {
    expect(attr(value)).toBe(expected);
  });

  it('keeps an attribute named __proto__ as a plain key', () => {
    const row = decodeJson([
      jsonSpan({ attributes: [{ key: '__proto__', value: { stringValue: 'polluted?' } }] }),
    ]).rows[0]!;
    expect(JSON.stringify(row.SpanAttributes)).toBe('{"__proto__":"polluted?"}');
    expect(Object.getPrototypeOf(row.SpanAttributes)).toBe(Object.prototype);
  });

  it('accepts snake_case field names and enum names', () => {
    const text = JSON.stringify({
      resource_spans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { string_value: 'snake' } }] },
          scope_spans: [
            {
              scope: { name: 's' },
              spans: [
                {
                  trace_id: TRACE.toUpperCase(),
                  span_id: SPAN,
                  parent_span_id: '0000000000000000',
                  name: 'x',
                  kind: 'SPAN_KIND_PRODUCER',
                  // A JSON number (2026-01-31 09:00, exact as a double) and a decimal string.
                  start_time_unix_nano: 1_769_850_000_000_000_000,
                  end_time_unix_nano: '1769850002000000001',
                  status: { code: 'STATUS_CODE_OK' },
                },
              ],
            },
          ],
        },
      ],
    });
    const { rows } = decodeTraces(Buffer.from(text), 'json', limits);
    expect(rows[0]).toMatchObject({
      TraceId: TRACE,
      ParentSpanId: '',
      ServiceName: 'snake',
      SpanKind: 'Producer',
      StatusCode: 'Ok',
      Timestamp: '1769850000.000000000',
      Duration: 2_000_000_001,
    });
  });
});

describe('protobuf and JSON decode to the same rows', () => {
  it('matches for spans from the SDK, through the official serializer', () => {
    const spans = makeSpans('same-rows', [
      { name: 'a', attributes: { s: 'x', n: 7, f: 0.25, b: false, arr: ['p', 'q'], nums: [1.5, 2] } },
      { name: 'b', error: 'boom', event: { name: 'ev', attributes: { k: 'v' } } },
    ]);
    const pb = decodeTraces(
      Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!),
      'protobuf',
      limits,
    );
    expect(pb.rows).toHaveLength(3);
    const a = pb.rows.find((r) => r.SpanName === 'a')!;
    expect(a.SpanAttributes).toEqual({
      s: 'x',
      n: '7',
      f: '0.25',
      b: 'false',
      arr: '["p","q"]',
      nums: '[1.5,2]',
    });
    expect(a.Timestamp).toMatch(/^\d{10}\.\d{9}$/);
    const [sec, ns] = spans.find((s) => s.name === 'a')!.startTime;
    expect(a.Timestamp).toBe(`${sec}.${String(ns).padStart(9, '0')}`);
  });
});

describe('per-span rejection and limits', () => {
  it('rejects spans with unusable ids but keeps the rest (partial success)', () => {
    const result = decodeJson([jsonSpan(), jsonSpan({ traceId: '' }), jsonSpan({ spanId: 'abcd' })]);
    expect(result.rows).toHaveLength(1);
    expect(result.rejectedSpans).toBe(2);
    expect(result.message).toBe('2 span(s) rejected: trace_id is missing or all zeros');
  });

  it('truncates long attribute values and says so', () => {
    const result = decodeJson([
      jsonSpan({ attributes: [{ key: 'big', value: { stringValue: 'x'.repeat(5000) } }] }),
    ]);
    expect(result.rows[0]!.SpanAttributes.big).toHaveLength(1000);
    expect(result.truncatedValues).toBe(1);
    expect(result.message).toMatch(/1 attribute value\(s\) truncated to 1000 characters/);
  });

  it('refuses AnyValue nesting past the depth limit', () => {
    let value: object = { stringValue: 'leaf' };
    for (let i = 0; i < 10; i++) value = { arrayValue: { values: [value] } };
    expect(() => attr(value)).toThrow(/nests arrays\/kvlists deeper than 8/);
  });

  it('refuses too many spans with 413', () => {
    const spans = Array.from({ length: 101 }, () => jsonSpan());
    try {
      decodeJson(spans);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(OtlpDecodeError);
      expect((err as OtlpDecodeError).status).toBe(413);
      expect((err as Error).message).toMatch(/more than 100 spans/);
    }
  });

  it.each([
    ['resourceSpans is not an array', '{"resourceSpans":{}}', /resourceSpans: expected an array/],
    ['kind is garbage', jsonRequest('s', [jsonSpan({ kind: 'SIDEWAYS' })]), /kind: expected a SpanKind/],
    [
      'time is negative',
      jsonRequest('s', [jsonSpan({ startTimeUnixNano: '-5' })]),
      /startTimeUnixNano: expected unsigned/,
    ],
    [
      'id is base64',
      jsonRequest('s', [jsonSpan({ traceId: 'W47/95gDgQPSabYzgT/GDA==' })]),
      /ids are hex, not base64/,
    ],
    [
      'boolValue is a string',
      jsonRequest('s', [jsonSpan({ attributes: [{ key: 'k', value: { boolValue: 'yes' } }] })]),
      /boolValue: expected true or false/,
    ],
    ['not JSON', '{"resourceSpans": [', /invalid JSON/],
  ])('JSON with %s → 400 naming the problem', (_label, text, message) => {
    expect(() => decodeTraces(Buffer.from(text), 'json', limits)).toThrow(message);
  });

  it('refuses truncated protobuf', () => {
    const spans = makeSpans('trunc', [{ name: 'a' }]);
    const body = Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!);
    expect(() => decodeTraces(body.subarray(0, body.length - 7), 'protobuf', limits)).toThrow(/truncated/);
  });

  it('skips unknown protobuf fields as protobuf requires', () => {
    const spans = makeSpans('unknown', [{ name: 'a' }]);
    const w = protobuf.Writer.create();
    w.uint32((99 << 3) | 2).string('future field');
    const body = Buffer.concat([
      Buffer.from(w.finish()),
      Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!),
    ]);
    expect(decodeTraces(body, 'protobuf', limits).rows).toHaveLength(2);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Collector, decodeTraces, startCollector, waitForInserted } from '../../src/index.js';
import { quoteLongIntegers } from '../../src/otlp/quote-long-integers.js';
import { newTraceId, postTraces } from './helpers/otlp-client.js';
import { openTestStore, type TestStore } from './helpers/test-store.js';

// int64 fields sent as JSON numbers (OTLP/JSON allows it; Python's json.dumps does it) keep every
// digit: JSON.parse alone would round 1764600000123456789 to 1764600000123456768.

describe('quoteLongIntegers', () => {
  it.each([
    ['{"t":1764600000123456789}', '{"t":"1764600000123456789"}'],
    [
      '{"t" : \n 1764600000123456789 , "u":-9223372036854775808}',
      '{"t" : \n "1764600000123456789" , "u":"-9223372036854775808"}',
    ],
    ['{"a":{"b":[{"c":9007199254740993}]}}', '{"a":{"b":[{"c":"9007199254740993"}]}}'],
  ])('quotes integer member values of 16+ digits: %s', (text, quoted) => {
    expect(quoteLongIntegers(text)).toBe(quoted);
  });

  it.each([
    ['15 digits are exact as doubles', '{"t":176460000012345}'],
    ['a fraction', '{"d":1764600000123456789.5}'],
    ['an exponent', '{"d":17646000001234567e3}'],
    ['a leading zero (invalid JSON stays invalid)', '{"t":01764600000123456789}'],
    ['an array element (no int64 in OTLP is one)', '{"a":[1764600000123456789]}'],
    ['a key position (invalid JSON stays invalid)', '{1764600000123456789:1}'],
  ])('leaves alone %s', (_, text) => {
    expect(quoteLongIntegers(text)).toBe(text);
  });

  it.each([
    ['digits in a string value', '{"s":"1764600000123456789"}'],
    ['a string that looks like a member', '{"s":"x\\":1764600000123456789"}'],
    ['an escaped backslash before the closing quote', '{"s":"\\\\","t":"\\\\\\":1764600000123456789"}'],
    ['\\u0022 (a quote only once parsed)', '{"s":"\\u0022:1764600000123456789"}'],
    ['a key made of digits', '{"1764600000123456789":"x"}'],
    ['an unterminated string', '{"s":"a:1764600000123456789'],
  ])('never touches text inside strings: %s', (_, text) => {
    expect(quoteLongIntegers(text)).toBe(text);
  });

  it('changes only what is outside strings in a mix, and the result parses to the same strings', () => {
    const text =
      '{"s":"a \\"b\\": 12345678901234567890 \\\\","n":12345678901234567890,"k":"12345678901234567890"}';
    const out = quoteLongIntegers(text);
    expect(JSON.parse(out)).toEqual({
      s: 'a "b": 12345678901234567890 \\',
      n: '12345678901234567890',
      k: '12345678901234567890',
    });
  });

  it('returns the very same string when nothing needs quoting (no copy, no scan)', () => {
    const text = JSON.stringify({ t: '1764600000123456789', kind: 3 });
    expect(quoteLongIntegers(text)).toBe(text);
  });
});

let ts: TestStore;
let collector: Collector;

beforeAll(async () => {
  ts = await openTestStore('int64');
  collector = await startCollector({
    port: 0,
    store: ts.store,
    writerOptions: { spoolDir: ts.spoolDir, maxBatchDelayMs: 5 },
  });
});

afterAll(async () => {
  await collector?.close();
  await ts?.cleanup();
});

describe('int64 as JSON numbers, end to end', () => {
  it('stores exact nanoseconds for start, end and event times, exact intValues, and strings as sent', async () => {
    const trace = newTraceId();
    const sec = Math.floor(Date.now() / 1000) - 60;
    const start = `${sec}123456789`; // 19 digits: no double holds it
    const end = `${sec + 1}987654321`;
    const event = `${sec}500000001`;
    const digitsInStrings = [
      '1764600000123456789',
      'order 12345678901234567890 shipped',
      '":12345678901234567890',
    ];
    // Written by hand: JSON.stringify cannot emit these numbers unrounded.
    const body =
      `{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"int64"}}]},` +
      `"scopeSpans":[{"spans":[{"traceId":"${trace}","spanId":"00000000000000d1","name":"op","kind":2,` +
      `"startTimeUnixNano":${start},"endTimeUnixNano": ${end},` +
      `"events":[{"timeUnixNano":${event},"name":"e"}],` +
      `"attributes":[` +
      `{"key":"big","value":{"intValue":9007199254740993}},` +
      `{"key":"min","value":{"intValue":-9223372036854775808}},` +
      `{"key":"max","value":{"int_value":9223372036854775807}},` +
      digitsInStrings
        .map((s, i) => `{"key":"s${i}","value":{"stringValue":${JSON.stringify(s)}}}`)
        .join(',') +
      `]}]}]}]}`;
    expect(Number(start).toString()).not.toBe(start); // what JSON.parse alone would have stored

    const res = await postTraces(collector.url, body, { 'content-type': 'application/json' });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString())).toEqual({});
    await waitForInserted(collector.url);
    const { rows } = await ts.store.runReadOnly<Record<string, unknown>>(
      `SELECT toString(toUnixTimestamp64Nano(Timestamp)) AS start, toString(Duration) AS duration,
              arrayMap(t -> toString(toUnixTimestamp64Nano(t)), Events.Timestamp) AS events,
              SpanAttributes AS attrs
       FROM otel_traces WHERE TraceId = {trace:String}`,
      { trace },
    );
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.start).toBe(start);
    expect(row.duration).toBe((BigInt(end) - BigInt(start)).toString());
    expect(row.events).toEqual([event]);
    expect(row.attrs).toEqual({
      big: '9007199254740993',
      min: '-9223372036854775808',
      max: '9223372036854775807',
      s0: digitsInStrings[0],
      s1: digitsInStrings[1],
      s2: digitsInStrings[2],
    });
  });

  it('an int64 number out of range is still a 400 naming the path', () => {
    const text = (v: string) =>
      `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"${'a'.repeat(32)}","spanId":"${'b'.repeat(16)}",` +
      `"attributes":[{"key":"k","value":{"intValue":${v}}}]}]}]}]}`;
    const limits = { maxSpansPerRequest: 10, maxAttributeValueLength: 100, maxAnyValueDepth: 4 };
    expect(() => decodeTraces(Buffer.from(text('9223372036854775808')), 'json', limits)).toThrow(
      /resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[0\]\.attributes\[0\]\.value\.intValue: expected a 64-bit integer/,
    );
  });
});

import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Collector, startCollector } from '../../src/index.js';
import { heldWriter } from '../grpc/helpers/held-writer.js';

// The root of an OTLP/JSON body must be an ExportTraceServiceRequest object: `null` and other
// non-objects once decoded as an empty request and got a 200, telling a broken client all was well.
const writer = heldWriter();
let collector: Collector;

beforeAll(async () => {
  collector = await startCollector({ port: 0, writer });
});

afterAll(async () => {
  writer.release();
  await collector?.close();
});

it.each(['null', '[]', '5', '"resourceSpans"', 'true'])('answers 400 to a body of %s', async (body) => {
  const res = await fetch(`${collector.url}/v1/traces`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  expect(res.status).toBe(400);
  expect(await res.json()).toEqual({ code: 3, message: '$: expected an ExportTraceServiceRequest object' });
});

it('still answers 200 to an empty object', async () => {
  const res = await fetch(`${collector.url}/v1/traces`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  expect(res.status).toBe(200);
  expect(writer.rows).toHaveLength(0);
});

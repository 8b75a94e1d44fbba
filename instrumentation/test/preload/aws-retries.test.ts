import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './helpers/otlp-receiver.js';
import { type FixtureResult, runFixture } from './helpers/run-fixture.js';
import { CLIENT, envelopeOf } from './helpers/spans.js';

/**
 * Answers as DynamoDB does when throttling (awsJson1_0: 400 with the error name in `__type`):
 * tables `fl_h9_retry*` twice then success (counted per table), `fl_h9_always*` every time.
 */
async function startThrottlingDynamo(): Promise<{ server: Server; url: string }> {
  const calls = new Map<string, number>();
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => {
      text += c.toString();
    });
    req.on('end', () => {
      const table = String((JSON.parse(text) as { TableName?: string }).TableName);
      const n = (calls.get(table) ?? 0) + 1;
      calls.set(table, n);
      const throttled = table.startsWith('fl_h9_always') || n <= 2;
      const body = JSON.stringify(
        throttled
          ? {
              __type: 'com.amazonaws.dynamodb.v20120810#ThrottlingException',
              message: 'Rate of requests exceeds the allowed throughput.',
            }
          : { Item: { id: { S: '1' } } },
      );
      res.writeHead(throttled ? 400 : 200, {
        'content-type': 'application/x-amz-json-1.0',
        'x-amzn-requestid': `FLH9REQ${n}`,
        'content-length': String(Buffer.byteLength(body)),
      });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('AWS SDK throttling under the preload', () => {
  let receiver: OtlpReceiver;
  let dynamo: { server: Server; url: string };
  let results: Record<string, FixtureResult>;
  const spansOf = (service: string): ReceivedSpan[] => receiver.spans.filter((s) => s.service === service);
  const operationOf = (service: string): ReceivedSpan => {
    const found = spansOf(service).filter((s) => s.attributes['rpc.system'] === 'aws-api');
    expect(found).toHaveLength(1);
    return found[0] as ReceivedSpan;
  };
  const httpSpans = (service: string) =>
    spansOf(service).filter((s) => s.kind === CLIENT && s.attributes['http.request.method'] === 'POST');

  // Each run: its service name, preload flag, table (how the endpoint answers) and SDK maxAttempts.
  const RUNS = {
    'fl-h9-aws-retry-import': { mode: 'import', table: 'fl_h9_retry_a', attempts: '3' },
    'fl-h9-aws-retry-require': { mode: 'require', table: 'fl_h9_retry_b', attempts: '3' },
    'fl-h9-aws-fail': { mode: 'require', table: 'fl_h9_always', attempts: '1' },
    'fl-h9-aws-fail-twice': { mode: 'import', table: 'fl_h9_always_2', attempts: '2' },
  } as const;

  beforeAll(async () => {
    [receiver, dynamo] = await Promise.all([startOtlpReceiver(), startThrottlingDynamo()]);
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, DDB_URL: dynamo.url, NODE_NO_WARNINGS: '1' };
    const entries = await Promise.all(
      Object.entries(RUNS).map(async ([service, run]) => {
        const result = await runFixture({
          fixture: 'aws-retry.mjs',
          mode: run.mode,
          env: { ...env, OTEL_SERVICE_NAME: service, DDB_TABLE: run.table, DDB_ATTEMPTS: run.attempts },
        });
        return [service, result] as const;
      }),
    );
    results = Object.fromEntries(entries);
  });

  afterAll(async () => {
    dynamo?.server.close();
    await receiver?.close();
  });

  it('leaves the application results unchanged', () => {
    const seen = Object.fromEntries(
      Object.entries(results).map(([service, r]) => [service, { code: r.code, stdout: r.stdout }]),
    );
    expect(seen).toEqual({
      'fl-h9-aws-retry-import': { code: 0, stdout: 'ddb ok 1\n' },
      'fl-h9-aws-retry-require': { code: 0, stdout: 'ddb ok 1\n' },
      'fl-h9-aws-fail': { code: 0, stdout: 'ddb ThrottlingException\n' },
      'fl-h9-aws-fail-twice': { code: 0, stdout: 'ddb ThrottlingException\n' },
    });
  });

  it.each(['fl-h9-aws-retry-import', 'fl-h9-aws-retry-require'])(
    '%s: two throttled attempts then success make one operation with attempts 3, previous ThrottlingException',
    (service) => {
      const operation = operationOf(service);
      expect(envelopeOf(operation)).toEqual({
        source: 'sdk',
        correlation_id: operation.traceId,
        attempts: 3,
        previous_class: 'rate_limit',
        previous_code: 'ThrottlingException',
        previous_message: 'Rate of requests exceeds the allowed throughput.',
      });
    },
  );

  it('marks the HTTP requests inside the operation as transport, with no envelope of their own', () => {
    for (const [service, count] of [
      ['fl-h9-aws-retry-import', 3],
      ['fl-h9-aws-retry-require', 3],
      ['fl-h9-aws-fail', 1],
      ['fl-h9-aws-fail-twice', 2],
    ] as const) {
      const transports = httpSpans(service);
      expect(transports.map((s) => s.attributes['http.response.status_code'])).toEqual(
        count === 3 ? [400, 400, 200] : Array(count).fill(400),
      );
      for (const span of transports) {
        expect(span.parentSpanId).toBe(operationOf(service).spanId);
        expect(envelopeOf(span)).toEqual({
          source: 'http',
          correlation_id: span.traceId,
          call_role: 'transport',
        });
      }
    }
  });

  it('gives a finally failed operation its own envelope, and its earlier attempt as previous', () => {
    expect(envelopeOf(operationOf('fl-h9-aws-fail-twice'))).toMatchObject({
      class: 'rate_limit',
      code: 'ThrottlingException',
      retryable: true,
      attempts: 2,
      previous_class: 'rate_limit',
      previous_code: 'ThrottlingException',
    });
    // One attempt only: no attempts, no previous envelope.
    const single = envelopeOf(operationOf('fl-h9-aws-fail'));
    expect(single).toMatchObject({ class: 'rate_limit', code: 'ThrottlingException' });
    expect(Object.keys(single).filter((k) => k.startsWith('previous_') || k.startsWith('attempt'))).toEqual(
      [],
    );
  });

  it('never marks the SDK’s own retries as misrouted or as attempts of their own', () => {
    for (const service of Object.keys(RUNS)) {
      const marked = spansOf(service).filter(
        (s) =>
          s.attributes['faultline.misrouted_retry'] !== undefined ||
          s.attributes['faultline.attempt'] !== undefined ||
          s.attributes['faultline.propagated'] !== undefined,
      );
      expect(marked).toEqual([]);
    }
  });

  it('keeps the AWS error detail in raw, as JSON without credentials', () => {
    const raw = String(operationOf('fl-h9-aws-fail').attributes['faultline.raw']);
    expect(JSON.parse(raw)).toMatchObject({
      name: 'ThrottlingException',
      httpStatusCode: 400,
      requestId: 'FLH9REQ1',
      attempts: 1,
    });
    for (const span of spansOf('fl-h9-aws-fail')) {
      expect(JSON.stringify(span.attributes)).not.toContain('fl-h9-not-a-secret');
    }
  });
});

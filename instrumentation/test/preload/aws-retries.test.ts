import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './helpers/otlp-receiver.js';
import { type FixtureResult, runFixture } from './helpers/run-fixture.js';
import { CLIENT, envelopeOf } from './helpers/spans.js';

/**
 * Answers as DynamoDB does when throttling (awsJson1_0: 400 with the error name in `__type`):
 * table `fl_h9_retry` twice then success, `fl_h9_always` every time.
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
      const throttled = table === 'fl_h9_always' || n <= 2;
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
  let retried: FixtureResult;
  let failed: FixtureResult;
  const spansOf = (service: string): ReceivedSpan[] => receiver.spans.filter((s) => s.service === service);
  const httpSpans = (service: string) =>
    spansOf(service).filter((s) => s.kind === CLIENT && s.attributes['http.request.method'] === 'POST');

  beforeAll(async () => {
    [receiver, dynamo] = await Promise.all([startOtlpReceiver(), startThrottlingDynamo()]);
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, DDB_URL: dynamo.url, NODE_NO_WARNINGS: '1' };
    [retried, failed] = await Promise.all([
      runFixture({
        fixture: 'aws-retry.mjs',
        mode: 'import',
        env: { ...env, OTEL_SERVICE_NAME: 'fl-h9-aws-retry', DDB_TABLE: 'fl_h9_retry', DDB_ATTEMPTS: '3' },
      }),
      runFixture({
        fixture: 'aws-retry.mjs',
        mode: 'require',
        env: { ...env, OTEL_SERVICE_NAME: 'fl-h9-aws-fail', DDB_TABLE: 'fl_h9_always', DDB_ATTEMPTS: '1' },
      }),
    ]);
  });

  afterAll(async () => {
    dynamo?.server.close();
    await receiver?.close();
  });

  it('leaves the application results unchanged', () => {
    expect({ code: retried.code, stdout: retried.stdout }).toEqual({ code: 0, stdout: 'ddb ok 1\n' });
    expect({ code: failed.code, stdout: failed.stdout }).toEqual({
      code: 0,
      stdout: 'ddb ThrottlingException\n',
    });
  });

  it('classifies the throttled HTTP attempts from their aws-json body, as rate limits', () => {
    const attempts = httpSpans('fl-h9-aws-retry');
    expect(attempts.map((s) => s.attributes['http.response.status_code'])).toEqual([400, 400, 200]);
    for (const span of attempts.slice(0, 2)) {
      expect(envelopeOf(span)).toMatchObject({
        class: 'rate_limit',
        code: 'ThrottlingException',
        retryable: true,
      });
    }
  });

  it('never marks the SDK’s own retries as misrouted', () => {
    const marked = spansOf('fl-h9-aws-retry').filter(
      (s) => s.attributes['faultline.misrouted_retry'] === true,
    );
    expect(marked).toEqual([]);
    const operation = spansOf('fl-h9-aws-retry').find((s) => s.attributes['rpc.system'] === 'aws-api');
    // Success and failure spans of the SDK count under one source, for the dashboard's rates.
    expect(operation?.attributes['faultline.source']).toBe('sdk');
    expect(operation?.attributes['faultline.class']).toBeUndefined();
  });

  it('keeps the AWS error detail in raw, as JSON without credentials', () => {
    const operation = spansOf('fl-h9-aws-fail').find((s) => s.attributes['rpc.system'] === 'aws-api');
    const raw = String(operation?.attributes['faultline.raw']);
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

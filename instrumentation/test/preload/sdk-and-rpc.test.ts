import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './helpers/otlp-receiver.js';
import { type FixtureResult, runFixture } from './helpers/run-fixture.js';
import { CLIENT, envelopeOf, SERVER } from './helpers/spans.js';

/** Answers every call the way DynamoDB answers a missing table (aws-json 1.0 protocol). */
async function startFakeDynamo(): Promise<{ server: Server; url: string }> {
  const body = JSON.stringify({
    __type: 'com.amazonaws.dynamodb.v20120810#ResourceNotFoundException',
    message: 'Requested resource not found',
  });
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(400, {
      'content-type': 'application/x-amz-json-1.0',
      'x-amzn-requestid': 'FLH3REQUESTID',
      'content-length': String(Buffer.byteLength(body)),
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('AWS SDK v3 and gRPC under the preload', () => {
  let receiver: OtlpReceiver;
  let dynamo: { server: Server; url: string };
  let run: FixtureResult;
  let spans: ReceivedSpan[];

  beforeAll(async () => {
    [receiver, dynamo] = await Promise.all([startOtlpReceiver(), startFakeDynamo()]);
    run = await runFixture({
      fixture: 'sdk-calls.mjs',
      mode: 'import',
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'fl-h3-sdk', DDB_URL: dynamo.url },
    });
    spans = receiver.spans;
  });

  afterAll(async () => {
    dynamo?.server.close();
    await receiver?.close();
  });

  it('leaves the application results unchanged', () => {
    expect(run.stdout).toBe('ddb ResourceNotFoundException\ngrpc 14\n');
    expect(run.code).toBe(0);
  });

  it('classifies the typed AWS exception reached through exceptionHook', () => {
    const aws = spans.find((s) => s.kind === CLIENT && s.attributes['rpc.system'] === 'aws-api');
    expect(envelopeOf(aws)).toMatchObject({ source: 'sdk', code: 'ResourceNotFoundException' });
    expect(String(aws?.attributes['faultline.raw'])).not.toContain('fl-h3-not-a-secret');
  });

  it.each([
    { side: 'inbound', kind: SERVER },
    { side: 'outbound (makeGenericClientConstructor)', kind: CLIENT },
  ])('classifies the gRPC status on the failing $side RPC span', ({ kind }) => {
    const rpc = spans.find((s) => s.kind === kind && s.attributes['rpc.system'] === 'grpc');
    expect(envelopeOf(rpc)).toMatchObject({
      source: 'rpc',
      class: 'transient',
      retryable: true,
      code: 'UNAVAILABLE',
    });
  });
});

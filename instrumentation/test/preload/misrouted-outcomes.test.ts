import { setTimeout } from 'node:timers/promises';
import { context, type Span, SpanKind, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { classifyError } from '../../src/error/classify-error.js';
import { createPreloadState } from '../../src/preload/pipeline/preload-state.js';
import { setEnvelope } from '../../src/preload/pipeline/span-envelope.js';
import { FaultlineSpanProcessor } from '../../src/preload/pipeline/span-processor.js';
import { readConfig } from '../../src/preload/sdk/config.js';
import { storedAttributes } from './helpers/stored-span.js';

/** The real SDK and the real span processor; spans are shaped as the HTTP instrumentation makes them. */
describe('which repeats are misrouted retries', () => {
  let exporter: InMemorySpanExporter;
  let provider: BasicTracerProvider;
  const url = 'http://127.0.0.1:1/fl_h9/charge';

  beforeEach(() => {
    exporter = new InMemorySpanExporter();
    const state = createPreloadState(readConfig({}, {}).config);
    provider = new BasicTracerProvider({
      spanProcessors: [new FaultlineSpanProcessor(state), new SimpleSpanProcessor(exporter)],
    });
  });

  afterEach(async () => {
    await provider.shutdown();
  });

  const tracer = () => provider.getTracer('fl-h9-test');

  /** One HTTP client call in request `parent`, answered with `status`. */
  function call(status: number, parent: Span): void {
    const ctx = trace.setSpan(context.active(), parent);
    const span = tracer().startSpan(
      'POST',
      { kind: SpanKind.CLIENT, attributes: { 'http.request.method': 'POST', 'url.full': url } },
      ctx,
    );
    span.setAttribute('http.response.status_code', status);
    span.end();
  }

  const marks = () =>
    exporter
      .getFinishedSpans()
      .filter((s) => s.attributes['url.full'] === url)
      .map((s) => [
        s.attributes['http.response.status_code'],
        s.attributes['faultline.misrouted_retry'] ?? false,
      ]);

  it('marks a repeat after a non-retryable failure, and nothing after a retryable one or a success', () => {
    const request = tracer().startSpan('GET /checkout', { kind: SpanKind.SERVER });
    call(400, request); // validation: not retryable
    call(503, request); // repeats the 400: misrouted, but it failed retryably…
    call(503, request); // …so this retry of a 503 is legitimate
    call(400, request);
    call(200, request); // repeats the 400: misrouted; it succeeded…
    call(200, request); // …so the next identical call is just another call
    request.end();
    expect(marks()).toEqual([
      [400, false],
      [503, true],
      [503, false],
      [400, false],
      [200, true],
      [200, false],
    ]);
  });

  it('never marks a call the caller itself aborted, then made again', async () => {
    // Node's own AbortError (code ABORT_ERR), as an aborted fetch or http request ends with.
    const aborted = await setTimeout(1, null, { signal: AbortSignal.abort() }).catch((e: unknown) => e);
    const request = tracer().startSpan('GET /search', { kind: SpanKind.SERVER });
    const ctx = trace.setSpan(context.active(), request);
    const first = tracer().startSpan(
      'POST',
      { kind: SpanKind.CLIENT, attributes: { 'http.request.method': 'POST', 'url.full': url } },
      ctx,
    );
    setEnvelope(first, classifyError(aborted, { source: 'http' }));
    first.end();
    call(200, request);
    request.end();
    const [abortedSpan] = exporter.getFinishedSpans().filter((s) => s.attributes['url.full'] === url);
    expect(abortedSpan?.attributes).toMatchObject({
      'faultline.code': 'ABORT_ERR',
      'faultline.retryable': false,
    });
    expect(marks()).toEqual([
      [undefined, false],
      [200, false],
    ]);
  });

  it('never marks the retries a client library makes inside its own operation', () => {
    const request = tracer().startSpan('GET /receipt', { kind: SpanKind.SERVER });
    // An AWS SDK operation span, with its HTTP attempts as children (as instrumentation-aws-sdk
    // and instrumentation-http produce them).
    const operation = tracer().startSpan(
      'DynamoDB.PutItem',
      { kind: SpanKind.CLIENT, attributes: { 'rpc.system': 'aws-api', 'rpc.service': 'DynamoDB' } },
      trace.setSpan(context.active(), request),
    );
    call(400, operation);
    call(400, operation);
    operation.end();
    request.end();
    expect(marks()).toEqual([
      [400, false],
      [400, false],
    ]);
    const op = exporter.getFinishedSpans().find((s) => s.name === 'DynamoDB.PutItem');
    expect(op && storedAttributes(op)['faultline.source']).toBe('sdk');
  });
});

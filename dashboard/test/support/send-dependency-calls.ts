import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

/**
 * The ground truth the Dependencies page must show: `shop` calls api.example.com three times
 * (one 400, first-hand), the postgresql database `shop` twice (both fine), and DynamoDB/PutItem
 * once (throttled), each call under its own SERVER span.
 */
export const DEPENDENCY_TRUTH = [
  { dependency: 'api.example.com', calls: 3, failures: 1, cls: 'validation' },
  { dependency: 'aws DynamoDB/PutItem', calls: 1, failures: 1, cls: 'rate_limit' },
  { dependency: 'postgresql shop', calls: 2, failures: 0, cls: '' },
] as const;

export async function sendDependencyCalls(otlpBaseUrl: string): Promise<void> {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'shop' }),
    spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${otlpBaseUrl}/v1/traces` }))],
  });
  const tracer = provider.getTracer('@faultline/deps-e2e');
  const calls: { name: string; attrs: Record<string, string>; failure?: [string, string, string] }[] = [
    {
      name: 'GET',
      attrs: { 'server.address': 'api.example.com', 'url.full': 'https://api.example.com/a/1' },
    },
    {
      name: 'GET',
      attrs: { 'server.address': 'api.example.com', 'url.full': 'https://api.example.com/a/2' },
    },
    {
      name: 'POST',
      attrs: { 'server.address': 'api.example.com', 'server.port': '443' },
      failure: ['validation', 'http', '400'],
    },
    {
      name: 'SELECT',
      attrs: { 'db.system.name': 'postgresql', 'db.namespace': 'shop', 'server.address': 'db1' },
    },
    { name: 'INSERT', attrs: { 'db.system.name': 'postgresql', 'db.namespace': 'shop' } },
    {
      name: 'DynamoDB.PutItem',
      attrs: { 'rpc.system': 'aws-api', 'rpc.service': 'DynamoDB', 'rpc.method': 'PutItem' },
      failure: ['rate_limit', 'sdk', 'ThrottlingException'],
    },
  ];
  for (const [i, c] of calls.entries()) {
    const server = tracer.startSpan('GET /checkout', {
      kind: SpanKind.SERVER,
      attributes: { 'faultline.correlation_id': `deps-${i}`, 'faultline.entry': true },
    });
    const span = tracer.startSpan(
      c.name,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          ...c.attrs,
          'faultline.correlation_id': `deps-${i}`,
          'faultline.source': c.failure?.[1] ?? (c.attrs['db.system.name'] ? 'db' : 'http'),
          ...(c.failure
            ? {
                'faultline.class': c.failure[0],
                'faultline.code': c.failure[2],
                'faultline.retryable': 'false',
              }
            : {}),
        },
      },
      trace.setSpan(context.active(), server),
    );
    if (c.failure) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
    server.end();
  }
  await provider.forceFlush();
  await provider.shutdown();
}

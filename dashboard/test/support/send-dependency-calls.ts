import {
  type Context,
  context,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';

/**
 * A multi-service shop whose dependencies are known, and what the Dependencies page must show for
 * it, counted by hand from the calls sent below (never recomputed under the page's rules):
 *
 * - checkout → postgresql shop: 40 calls: 32 fine, 4 deadlocks (transient 40P01) of which 2 were
 *   retried and succeeded (attempt 2), 1 bad input (validation 22P02) repeated once anyway (a
 *   misrouted retry, attempt 2, failing the same way): 6 first-hand failures (4 transient, 2
 *   validation), 3 retries, 1 misrouted.
 * - checkout → payments (peer.service): 10 calls, each answered by a payments SERVER span. 3 failed
 *   (502) because payments' call to Stripe failed: echoes, so 0 first-hand failures here.
 * - payments → api.stripe.com: 8 calls: 3 transient 503 (the cause of those echoes), 1 rate_limit
 *   429, 4 fine: 4 first-hand failures.
 * - checkout → aws DynamoDB/PutItem: 5 operations, 7 calls: 3 fine, 1 that the SDK retried twice
 *   after throttling (faultline.attempts = 3: 2 rate_limit failures, 2 retries) and then succeeded,
 *   1 expired token (authentication): 3 first-hand failures.
 * - checkout → inventory (peer.service): 6 calls, fine, each answered by an inventory SERVER span
 *   that publishes to Kafka.
 * - inventory → kafka orders: 6 produces, fine, of 10, 20, 30, 40, 50 and 60 ms: p50 35 ms, p95 57.5 ms.
 */
export interface EdgeTruth {
  service: string;
  dependency: string;
  source: string;
  calls: number;
  failures: number;
  byClass: Record<string, number>;
  retries: number;
  misrouted: number;
  codes: Record<string, number>;
}

export const EDGES: EdgeTruth[] = [
  {
    service: 'checkout',
    dependency: 'postgresql shop',
    source: 'db',
    calls: 40,
    failures: 6,
    byClass: { transient: 4, validation: 2 },
    retries: 3,
    misrouted: 1,
    codes: { 'transient/40P01': 4, 'validation/22P02': 2 },
  },
  {
    service: 'checkout',
    dependency: 'payments',
    source: 'http',
    calls: 10,
    failures: 0,
    byClass: {},
    retries: 0,
    misrouted: 0,
    codes: {},
  },
  {
    service: 'payments',
    dependency: 'api.stripe.com',
    source: 'http',
    calls: 8,
    failures: 4,
    byClass: { transient: 3, rate_limit: 1 },
    retries: 0,
    misrouted: 0,
    codes: { 'transient/503': 3, 'rate_limit/429': 1 },
  },
  {
    service: 'checkout',
    dependency: 'aws DynamoDB/PutItem',
    source: 'sdk',
    calls: 7,
    failures: 3,
    byClass: { rate_limit: 2, authentication: 1 },
    retries: 2,
    misrouted: 0,
    codes: { 'rate_limit/ThrottlingException': 2, 'authentication/ExpiredTokenException': 1 },
  },
  {
    service: 'checkout',
    dependency: 'inventory',
    source: 'http',
    calls: 6,
    failures: 0,
    byClass: {},
    retries: 0,
    misrouted: 0,
    codes: {},
  },
  {
    service: 'inventory',
    dependency: 'kafka orders',
    source: 'sdk',
    calls: 6,
    failures: 0,
    byClass: {},
    retries: 0,
    misrouted: 0,
    codes: {},
  },
];

export const KAFKA_LATENCY_MS = { p50: 35, p95: 57.5 };

type Failure = { cls: string; code: string; retryable?: boolean; propagated?: boolean };

interface CallSpec {
  name: string;
  attrs: Record<string, string>;
  failure?: Failure;
  kind?: SpanKind;
  durationMs?: number;
}

function provider(service: string, otlpBaseUrl: string): BasicTracerProvider {
  return new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': service }),
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url: `${otlpBaseUrl}/v1/traces` }), {
        maxQueueSize: 4096,
        maxExportBatchSize: 512,
      }),
    ],
  });
}

function failureAttrs(f: Failure | undefined): Record<string, string> {
  if (!f) return {};
  return {
    'faultline.class': f.cls,
    'faultline.code': f.code,
    'faultline.retryable': String(f.retryable ?? false),
    ...(f.propagated ? { 'faultline.propagated': 'true' } : {}),
  };
}

export async function sendDependencyCalls(otlpBaseUrl: string): Promise<void> {
  const providers = {
    checkout: provider('checkout', otlpBaseUrl),
    payments: provider('payments', otlpBaseUrl),
    inventory: provider('inventory', otlpBaseUrl),
  };
  const tracers = Object.fromEntries(
    Object.entries(providers).map(([k, p]) => [k, p.getTracer('@faultline/deps-e2e')]),
  ) as Record<keyof typeof providers, Tracer>;
  // Every span starts a few minutes ago, spaced by a millisecond, so the range=1h view holds them all.
  let clock = Date.now() - 5 * 60_000;
  let requestNo = 0;

  function call(tracer: Tracer, parent: Context, cid: string, c: CallSpec): Span {
    const start = clock++;
    const span = tracer.startSpan(
      c.name,
      {
        kind: c.kind ?? SpanKind.CLIENT,
        startTime: start,
        attributes: { ...c.attrs, 'faultline.correlation_id': cid, ...failureAttrs(c.failure) },
      },
      parent,
    );
    if (c.failure) span.setStatus({ code: SpanStatusCode.ERROR });
    return span;
  }

  function end(span: Span, durationMs = 5): void {
    span.end(clock - 1 + durationMs);
  }

  /** One request to `service`'s entry: a root SERVER span, the calls made inside it. */
  function request(service: keyof typeof providers, inside: (ctx: Context, cid: string) => void): void {
    const cid = `deps-${++requestNo}`;
    const server = tracers[service].startSpan('POST /checkout', {
      kind: SpanKind.SERVER,
      startTime: clock++,
      attributes: { 'faultline.correlation_id': cid, 'faultline.entry': true },
    });
    inside(trace.setSpan(context.active(), server), cid);
    server.end(clock + 100);
  }

  const pg = (attempt?: number, misrouted?: boolean) => ({
    'db.system.name': 'postgresql',
    'db.namespace': 'shop',
    'server.address': 'db1',
    'faultline.source': 'db',
    ...(attempt ? { 'faultline.attempt': String(attempt) } : {}),
    ...(misrouted ? { 'faultline.misrouted_retry': 'true' } : {}),
  });
  const dbCall = (ctx: Context, cid: string, c: CallSpec) => end(call(tracers.checkout, ctx, cid, c));

  // checkout → postgresql shop
  for (let i = 0; i < 32; i++)
    request('checkout', (ctx, cid) => dbCall(ctx, cid, { name: 'SELECT', attrs: pg() }));
  for (let i = 0; i < 4; i++) {
    request('checkout', (ctx, cid) => {
      dbCall(ctx, cid, {
        name: 'UPDATE',
        attrs: pg(),
        failure: { cls: 'transient', code: '40P01', retryable: true },
      });
      if (i < 2) dbCall(ctx, cid, { name: 'UPDATE', attrs: pg(2) });
    });
  }
  request('checkout', (ctx, cid) => {
    dbCall(ctx, cid, { name: 'INSERT', attrs: pg(), failure: { cls: 'validation', code: '22P02' } });
    dbCall(ctx, cid, { name: 'INSERT', attrs: pg(2, true), failure: { cls: 'validation', code: '22P02' } });
  });

  // checkout → payments → api.stripe.com, and payments → api.stripe.com on its own.
  const stripe = { 'server.address': 'api.stripe.com', 'server.port': '443', 'faultline.source': 'http' };
  const paymentsAttrs = {
    'peer.service': 'payments',
    'server.address': 'payments.internal',
    'server.port': '8080',
    'faultline.source': 'http',
  };
  for (let i = 0; i < 10; i++) {
    const fails = i < 3;
    const callsStripe = i < 7;
    request('checkout', (ctx, cid) => {
      const client = call(tracers.checkout, ctx, cid, {
        name: 'POST',
        attrs: paymentsAttrs,
        failure: fails ? { cls: 'transient', code: '502', retryable: true } : undefined,
      });
      const server = tracers.payments.startSpan(
        'POST /charge',
        {
          kind: SpanKind.SERVER,
          startTime: clock++,
          attributes: {
            'faultline.correlation_id': cid,
            ...failureAttrs(fails ? { cls: 'transient', code: '503', propagated: true } : undefined),
          },
        },
        trace.setSpan(ctx, client),
      );
      if (fails) server.setStatus({ code: SpanStatusCode.ERROR });
      if (callsStripe) {
        end(
          call(tracers.payments, trace.setSpan(ctx, server), cid, {
            name: 'POST',
            attrs: stripe,
            failure: fails ? { cls: 'transient', code: '503', retryable: true } : undefined,
          }),
        );
      }
      server.end(clock + 20);
      client.end(clock + 30);
    });
  }
  request('payments', (ctx, cid) =>
    end(
      call(tracers.payments, ctx, cid, {
        name: 'POST',
        attrs: stripe,
        failure: { cls: 'rate_limit', code: '429', retryable: true },
      }),
    ),
  );

  // checkout → aws DynamoDB/PutItem
  const dynamo = {
    'rpc.system': 'aws-api',
    'rpc.service': 'DynamoDB',
    'rpc.method': 'PutItem',
    'faultline.source': 'sdk',
  };
  for (let i = 0; i < 3; i++)
    request('checkout', (ctx, cid) => dbCall(ctx, cid, { name: 'DynamoDB.PutItem', attrs: dynamo }));
  request('checkout', (ctx, cid) =>
    dbCall(ctx, cid, {
      name: 'DynamoDB.PutItem',
      attrs: {
        ...dynamo,
        'faultline.attempts': '3',
        'faultline.previous_class': 'rate_limit',
        'faultline.previous_code': 'ThrottlingException',
      },
    }),
  );
  request('checkout', (ctx, cid) =>
    dbCall(ctx, cid, {
      name: 'DynamoDB.PutItem',
      attrs: dynamo,
      failure: { cls: 'authentication', code: 'ExpiredTokenException' },
    }),
  );

  // checkout → inventory → kafka orders
  for (let i = 0; i < 6; i++) {
    request('checkout', (ctx, cid) => {
      const client = call(tracers.checkout, ctx, cid, {
        name: 'POST',
        attrs: { 'peer.service': 'inventory', 'server.address': 'inventory', 'faultline.source': 'http' },
      });
      const server = tracers.inventory.startSpan(
        'POST /reserve',
        { kind: SpanKind.SERVER, startTime: clock++, attributes: { 'faultline.correlation_id': cid } },
        trace.setSpan(ctx, client),
      );
      const produce = call(tracers.inventory, trace.setSpan(ctx, server), cid, {
        name: 'orders publish',
        kind: SpanKind.PRODUCER,
        attrs: {
          'messaging.system': 'kafka',
          'messaging.destination.name': 'orders',
          'faultline.source': 'sdk',
        },
      });
      end(produce, (i + 1) * 10);
      server.end(clock + 80);
      client.end(clock + 90);
    });
  }

  for (const p of Object.values(providers)) {
    await p.forceFlush();
    await p.shutdown();
  }
}

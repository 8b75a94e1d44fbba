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

/** The port checkout calls inventory on (nothing listens: the spans are sent as services send them). */
export const INVENTORY_HOST = '127.0.0.1:37702';

/**
 * A shop whose failures are counted by hand, for the click paths of issue 30: every number a page
 * shows must open a view whose total is that number. One request per line below, each its own
 * trace; every span starts 20 minutes ago (a millisecond apart), so the range=1h view holds them
 * all and a range pinned minutes after them sees the same stored data.
 *
 * checkout (its entry requests):
 *   refused   ×7  GET 127.0.0.1:37702 → transient ECONNREFUSED (nothing answered)
 *   stock     ×10 GET 127.0.0.1:37702 → ok, answered by inventory's SERVER span
 *   busy      ×2  GET 127.0.0.1:37702 → transient 503; inventory's SERVER span answered without
 *                 recording a failure, so checkout's failure stays first-hand
 *   pay-down  ×3  POST payments.internal:8080 → transient ECONNREFUSED
 *   pay-ok    ×4  POST payments.internal:8080 → ok; payments → api.stripe.com ok
 *   pay-echo  ×2  POST payments.internal:8080 → transient 502, an echo: payments' SERVER span
 *                 failed (propagated) because its call to api.stripe.com failed, transient 503
 *   db-ok     ×6  INSERT postgresql shop → ok
 *   db-dup    ×5  INSERT postgresql shop → validation 23505 (a caller fault)
 * payments (its entry requests):
 *   limited   ×4  POST api.stripe.com → rate_limit 429
 *   charged   ×3  POST api.stripe.com → ok
 * inventory (its entry requests):
 *   denied    ×2  its SERVER span refuses: authentication 401 (no dependency: no call made)
 */
export const CLICK_TRUTH = {
  /** First-hand failures by class/source (the matrix). */
  matrix: { 'transient/http': 14, 'rate_limit/http': 4, 'validation/db': 5, 'authentication/http': 2 },
  /** The headline: the class × source with the most failures counted against the budget. */
  headline: { class: 'transient', source: 'http', failures: 14, counted: 20, dependency: INVENTORY_HOST },
  /** Top codes: "service/dependency/class/source/code" → first-hand failures. */
  topCodes: {
    [`checkout/${INVENTORY_HOST}/transient/http/ECONNREFUSED`]: 7,
    'checkout/postgresql shop/validation/db/23505': 5,
    'payments/api.stripe.com/rate_limit/http/429': 4,
    'checkout/payments.internal:8080/transient/http/ECONNREFUSED': 3,
    [`checkout/${INVENTORY_HOST}/transient/http/503`]: 2,
    'inventory//authentication/http/401': 2,
    'payments/api.stripe.com/transient/http/503': 2,
  } as Record<string, number>,
  /** The budget table (outbound calls, caller faults left out). */
  budget: {
    checkout: { calls: 39, failures: 12, propagated: 2, callerFaults: 5 },
    payments: { calls: 13, failures: 6, propagated: 0, callerFaults: 0 },
  },
  /** Dependencies: "service → dependency" edges with their calls and first-hand failures by class. */
  edges: {
    [`checkout → ${INVENTORY_HOST}`]: { calls: 19, failures: 9, byClass: { transient: 9 } },
    'checkout → payments.internal:8080': { calls: 9, failures: 3, byClass: { transient: 3 } },
    'checkout → postgresql shop': { calls: 11, failures: 5, byClass: { validation: 5 } },
    'payments → api.stripe.com': { calls: 13, failures: 6, byClass: { rate_limit: 4, transient: 2 } },
  } as Record<string, { calls: number; failures: number; byClass: Record<string, number> }>,
};

/** Correlation ids are `click-<line>-<n>`: the refused ones are the top group's examples. */
export const REFUSED_ID = /^click-refused-\d+$/;

type Failure = { cls: string; code: string; propagated?: boolean };

function failureAttrs(source: string, f: Failure | undefined): Record<string, string> {
  if (!f) return {};
  return {
    'faultline.class': f.cls,
    'faultline.source': source,
    'faultline.code': f.code,
    'faultline.message': `${f.code} (${f.cls})`,
    'faultline.retryable': String(f.cls === 'transient' || f.cls === 'rate_limit'),
    ...(f.propagated ? { 'faultline.propagated': 'true' } : {}),
  };
}

/** Sends the scenario; resolves with the start time of its last span (unix ms). */
export async function sendClickPaths(otlpBaseUrl: string): Promise<number> {
  const services = ['checkout', 'payments', 'inventory'] as const;
  const providers = Object.fromEntries(
    services.map((name) => [
      name,
      new BasicTracerProvider({
        resource: resourceFromAttributes({ 'service.name': name }),
        spanProcessors: [
          new BatchSpanProcessor(new OTLPTraceExporter({ url: `${otlpBaseUrl}/v1/traces` }), {
            maxQueueSize: 4096,
            maxExportBatchSize: 512,
          }),
        ],
      }),
    ]),
  ) as Record<(typeof services)[number], BasicTracerProvider>;
  const tracer = (name: (typeof services)[number]): Tracer =>
    providers[name].getTracer('@faultline/click-e2e');
  let clock = Date.now() - 20 * 60_000;
  const counters = new Map<string, number>();

  function span(
    service: (typeof services)[number],
    name: string,
    kind: SpanKind,
    parent: Context,
    cid: string,
    attrs: Record<string, string | boolean>,
    failure?: Failure,
  ): Span {
    const s = tracer(service).startSpan(
      name,
      {
        kind,
        startTime: clock++,
        attributes: {
          ...attrs,
          'faultline.correlation_id': cid,
          ...failureAttrs(String(attrs['faultline.source'] ?? 'http'), failure),
        },
      },
      parent,
    );
    if (failure) s.setStatus({ code: SpanStatusCode.ERROR });
    return s;
  }
  const end = (s: Span, ms = 5) => s.end(clock - 1 + ms);

  /** `times` entry requests of `service`, each its own trace, `line` naming their correlation ids. */
  function requests(
    service: (typeof services)[number],
    line: string,
    times: number,
    inside: (ctx: Context, cid: string) => void,
    rootFailure?: Failure,
  ): void {
    for (let i = 0; i < times; i++) {
      const n = (counters.get(line) ?? 0) + 1;
      counters.set(line, n);
      const cid = `click-${line}-${n}`;
      const root = span(
        service,
        'POST /entry',
        SpanKind.SERVER,
        context.active(),
        cid,
        // Only a root that fails names a source: a source marks a span the budget may count as a call.
        rootFailure ? { 'faultline.entry': true, 'faultline.source': 'http' } : { 'faultline.entry': true },
        rootFailure,
      );
      inside(trace.setSpan(context.active(), root), cid);
      root.end(clock + 100);
    }
  }

  const inventory = {
    'http.request.method': 'GET',
    'url.full': `http://${INVENTORY_HOST}/stock`,
    'server.address': '127.0.0.1',
    'server.port': '37702',
    'faultline.source': 'http',
  };
  const payments = {
    'http.request.method': 'POST',
    'url.full': 'http://payments.internal:8080/charge',
    'server.address': 'payments.internal',
    'server.port': '8080',
    'faultline.source': 'http',
  };
  const stripe = {
    'http.request.method': 'POST',
    'url.full': 'https://api.stripe.com/v1/charges',
    'server.address': 'api.stripe.com',
    'server.port': '443',
    'faultline.source': 'http',
  };
  const pg = {
    'db.system.name': 'postgresql',
    'db.namespace': 'shop',
    'db.query.text': 'INSERT INTO orders VALUES ($1)',
    'faultline.source': 'db',
  };

  /** checkout → inventory by host:port; inventory's SERVER span answers unless refused. */
  const callInventory = (ctx: Context, cid: string, failure?: Failure, answered = true) => {
    const client = span('checkout', 'GET', SpanKind.CLIENT, ctx, cid, inventory, failure);
    // Where inventory was reached, as an HTTP server instrumentation records it (the Host header).
    const reached = { 'server.address': '127.0.0.1', 'server.port': '37702', 'url.path': '/stock' };
    if (answered)
      end(span('inventory', 'GET /stock', SpanKind.SERVER, trace.setSpan(ctx, client), cid, reached), 3);
    end(client);
  };
  /** payments → api.stripe.com. */
  const callStripe = (ctx: Context, cid: string, failure?: Failure) =>
    end(span('payments', 'POST', SpanKind.CLIENT, ctx, cid, stripe, failure));

  requests('checkout', 'refused', 7, (ctx, cid) =>
    callInventory(ctx, cid, { cls: 'transient', code: 'ECONNREFUSED' }, false),
  );
  requests('checkout', 'stock', 10, (ctx, cid) => callInventory(ctx, cid));
  requests('checkout', 'busy', 2, (ctx, cid) => callInventory(ctx, cid, { cls: 'transient', code: '503' }));
  requests('checkout', 'pay-down', 3, (ctx, cid) =>
    end(
      span('checkout', 'POST', SpanKind.CLIENT, ctx, cid, payments, {
        cls: 'transient',
        code: 'ECONNREFUSED',
      }),
    ),
  );
  for (const [line, times, fails] of [
    ['pay-ok', 4, false],
    ['pay-echo', 2, true],
  ] as const) {
    requests('checkout', line, times, (ctx, cid) => {
      const client = span(
        'checkout',
        'POST',
        SpanKind.CLIENT,
        ctx,
        cid,
        payments,
        fails ? { cls: 'transient', code: '502' } : undefined,
      );
      const server = span(
        'payments',
        'POST /charge',
        SpanKind.SERVER,
        trace.setSpan(ctx, client),
        cid,
        {
          'server.address': 'payments.internal',
          'server.port': '8080',
          'url.path': '/charge',
          ...(fails ? { 'faultline.source': 'http' } : {}),
        },
        fails ? { cls: 'transient', code: '503', propagated: true } : undefined,
      );
      callStripe(trace.setSpan(ctx, server), cid, fails ? { cls: 'transient', code: '503' } : undefined);
      end(server, 20);
      end(client, 30);
    });
  }
  requests('checkout', 'db-ok', 6, (ctx, cid) =>
    end(span('checkout', 'INSERT', SpanKind.CLIENT, ctx, cid, pg)),
  );
  requests('checkout', 'db-dup', 5, (ctx, cid) =>
    end(span('checkout', 'INSERT', SpanKind.CLIENT, ctx, cid, pg, { cls: 'validation', code: '23505' })),
  );
  requests('payments', 'limited', 4, (ctx, cid) => callStripe(ctx, cid, { cls: 'rate_limit', code: '429' }));
  requests('payments', 'charged', 3, (ctx, cid) => callStripe(ctx, cid));
  requests('inventory', 'denied', 2, () => {}, { cls: 'authentication', code: '401' });

  for (const p of Object.values(providers)) {
    await p.forceFlush();
    await p.shutdown();
  }
  return clock;
}

import { context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

/** The port the calls below name (nothing listens: the spans are sent as a service would send them). */
export const INVENTORY_PORT = 37701;
/** A service name with a right-to-left override in it: it must be shown escaped, never applied. */
export const BIDI_SERVICE = 'ledger\u202Egnp.exe';
export const BIDI_SHOWN = 'ledger⟨U+202E⟩gnp.exe';
/** A secret in a query string: the path is shown, the query never is. */
export const QUERY_SECRET = 'sk_live_51NamedCallsSecret';

/**
 * What each row of the request must say, in the tree's order: the service, the call (method and
 * path, statement summary, RPC method, messaging destination, tool) and who answered it (the
 * callee's own service name, from its SERVER span under the call; else what the caller called).
 */
export const NAMED_ROWS = [
  { service: 'checkout', call: 'POST /checkout' },
  { service: 'checkout', call: 'GET /429', peer: 'inventory', peerSource: 'callee' },
  { service: 'inventory', call: 'GET /429' },
  { service: 'checkout', call: 'INSERT orders', peer: 'postgresql shop', peerSource: 'caller' },
  { service: 'checkout', call: 'shop.Inventory/Reserve', peer: BIDI_SHOWN, peerSource: 'callee' },
  { service: BIDI_SHOWN, call: 'shop.Inventory/Reserve' },
  { service: 'checkout', call: 'publish orders', peer: 'kafka orders', peerSource: 'caller' },
  { service: 'checkout', call: 'tool lookup_order' },
  { service: 'checkout', call: 'GET /503', peer: 'inventory', peerSource: 'callee' },
  { service: 'inventory', call: 'GET /503' },
] as const;

function serviceTracer(otlpBaseUrl: string, service: string) {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': service }),
    spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${otlpBaseUrl}/v1/traces` }))],
  });
  return { provider, tracer: provider.getTracer('@faultline/named-calls-e2e') };
}

/**
 * One checkout request whose calls are named only by their attributes, as stock instrumentations
 * send them: the client spans' names are the bare method ("GET") or the driver's ("pg.query:INSERT
 * shop"), so the row must read the URL path, the statement or the RPC method to say which call it
 * was. checkout calls inventory twice by host:port (a 429, then a 503; inventory reports its
 * SERVER spans under both), inserts into PostgreSQL, calls a gRPC service whose own service name
 * carries a bidi override, publishes to Kafka and runs a GenAI tool.
 */
export async function sendNamedCalls(otlpBaseUrl: string, correlationId: string): Promise<void> {
  const checkout = serviceTracer(otlpBaseUrl, 'checkout');
  const inventory = serviceTracer(otlpBaseUrl, 'inventory');
  const ledger = serviceTracer(otlpBaseUrl, BIDI_SERVICE);
  const t0 = Date.now() - 3000;
  const at = (ms: number) => new Date(t0 + ms);
  const base = { 'faultline.correlation_id': correlationId };
  const failure = (cls: string, source: string, code: string) => ({
    'faultline.class': cls,
    'faultline.source': source,
    'faultline.code': code,
    'faultline.message': `${code} from ${source}`,
    'faultline.retryable': cls === 'transient' || cls === 'rate_limit',
  });
  const under = (parent: Span) => trace.setSpan(context.active(), parent);
  const ends: [Span, number, boolean][] = [];

  const root = checkout.tracer.startSpan('POST /checkout', {
    kind: SpanKind.SERVER,
    startTime: at(0),
    attributes: {
      ...base,
      'faultline.entry': true,
      'http.request.method': 'POST',
      'url.path': '/checkout',
      'http.route': '/checkout',
    },
  });
  ends.push([root, 400, true]);

  const httpCall = (path: string, start: number, code: string, cls: string) => {
    const url = `http://127.0.0.1:${INVENTORY_PORT}${path}?api_key=${QUERY_SECRET}&user=7`;
    const client = checkout.tracer.startSpan(
      'GET',
      {
        kind: SpanKind.CLIENT,
        startTime: at(start),
        attributes: {
          ...base,
          ...failure(cls, 'http', code),
          'http.request.method': 'GET',
          'url.full': url,
          'server.address': '127.0.0.1',
          'server.port': INVENTORY_PORT,
          'http.response.status_code': Number(code),
        },
      },
      under(root),
    );
    // inventory reports its own SERVER span under the call: a 4xx answer is not a failed server
    // span, a 5xx is.
    const server = inventory.tracer.startSpan(
      `GET ${path}`,
      {
        kind: SpanKind.SERVER,
        startTime: at(start + 2),
        attributes: {
          ...base,
          'http.request.method': 'GET',
          'url.path': path,
          'url.query': `api_key=${QUERY_SECRET}`,
          'http.response.status_code': Number(code),
          // Where the request reached it (the Host header), as a stock HTTP server span says.
          'server.address': '127.0.0.1',
          'server.port': INVENTORY_PORT,
        },
      },
      under(client),
    );
    ends.push([server, start + 20, code.startsWith('5')], [client, start + 25, true]);
  };

  httpCall('/429', 10, '429', 'rate_limit');

  const insert = checkout.tracer.startSpan(
    'pg.query:INSERT shop',
    {
      kind: SpanKind.CLIENT,
      startTime: at(60),
      attributes: {
        ...base,
        'faultline.source': 'db',
        'db.system.name': 'postgresql',
        'db.namespace': 'shop',
        'db.query.text': "INSERT INTO orders (id, card) VALUES ($1, '4242 4242 4242 4242')",
        'server.address': 'db1',
      },
    },
    under(root),
  );
  ends.push([insert, 90, false]);

  const rpc = checkout.tracer.startSpan(
    'shop.Inventory/Reserve',
    {
      kind: SpanKind.CLIENT,
      startTime: at(100),
      attributes: {
        ...base,
        'faultline.source': 'rpc',
        'rpc.system': 'grpc',
        'rpc.service': 'shop.Inventory',
        'rpc.method': 'Reserve',
        'server.address': '127.0.0.1',
        'server.port': 50051,
      },
    },
    under(root),
  );
  const rpcServer = ledger.tracer.startSpan(
    'shop.Inventory/Reserve',
    {
      kind: SpanKind.SERVER,
      startTime: at(102),
      // A gRPC server span names the RPC it served, as the client's does.
      attributes: { ...base, 'rpc.system': 'grpc', 'rpc.service': 'shop.Inventory', 'rpc.method': 'Reserve' },
    },
    under(rpc),
  );
  ends.push([rpcServer, 130, false], [rpc, 135, false]);

  const publish = checkout.tracer.startSpan(
    'orders publish',
    {
      kind: SpanKind.PRODUCER,
      startTime: at(140),
      attributes: {
        ...base,
        'faultline.source': 'messaging',
        'messaging.system': 'kafka',
        'messaging.operation.name': 'publish',
        'messaging.destination.name': 'orders',
      },
    },
    under(root),
  );
  ends.push([publish, 150, false]);

  const tool = checkout.tracer.startSpan(
    'execute_tool',
    {
      kind: SpanKind.INTERNAL,
      startTime: at(160),
      attributes: { ...base, 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup_order' },
    },
    under(root),
  );
  ends.push([tool, 200, false]);

  httpCall('/503', 210, '503', 'transient');

  for (const [span, end, failed] of ends.sort((a, b) => a[1] - b[1])) {
    if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end(at(end));
  }
  for (const s of [checkout, inventory, ledger]) {
    await s.provider.forceFlush();
    await s.provider.shutdown();
  }
}

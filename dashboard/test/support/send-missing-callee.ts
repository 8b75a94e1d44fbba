import { context, createTraceState, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

/** Where stock answers (nothing listens: the spans are sent as the services would send them). */
export const STOCK_PORT = 37811;
/** Where a service without spans answers (a vendor, a database proxy): nobody reports it. */
export const VENDOR_PORT = 37812;

function serviceTracer(otlpBaseUrl: string, service: string) {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': service }),
    spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${otlpBaseUrl}/v1/traces` }))],
  });
  return { provider, tracer: provider.getTracer('@faultline/missing-callee-e2e') };
}

/**
 * Issue 29, first-hand across sampling: `shop` runs at 100%, `stock` samples its own traces at 25%
 * (ot=th:c on the spans it keeps, each standing for 4). Two requests of shop:
 * - `kept-1`: shop calls stock (a 503) and stock's SERVER span, kept by its sampler, is under the
 *   call, failed: the call is stock's echo.
 * - `dropped-1`: the same call failed, but stock's sampler dropped its span: nothing under the
 *   call says who answered, so the first-hand rule counts the failure on shop's call; the page must
 *   say that this rests on stock's missing span. In the same request shop also calls a vendor at
 *   VENDOR_PORT that never reports spans (a 429): no note, nothing is known of who answers there.
 */
export async function sendMissingCallee(otlpBaseUrl: string): Promise<void> {
  const shop = serviceTracer(otlpBaseUrl, 'shop');
  const stock = serviceTracer(otlpBaseUrl, 'stock');
  const t0 = Date.now() - 5000;
  const at = (ms: number) => new Date(t0 + ms);
  const ends: [Span, number, boolean][] = [];
  const call = (root: Span, id: string, port: number, code: string, start: number): Span => {
    const span = shop.tracer.startSpan(
      'GET',
      {
        kind: SpanKind.CLIENT,
        startTime: at(start),
        attributes: {
          'faultline.correlation_id': id,
          'http.request.method': 'GET',
          'server.address': '127.0.0.1',
          'server.port': port,
          'url.full': `http://127.0.0.1:${port}/reserve`,
          'http.response.status_code': Number(code),
          'faultline.class': code === '429' ? 'rate_limit' : 'transient',
          'faultline.source': 'http',
          'faultline.code': code,
          'faultline.retryable': true,
        },
      },
      trace.setSpan(context.active(), root),
    );
    ends.push([span, start + 30, true]);
    return span;
  };
  for (const [id, kept, start] of [
    ['kept-1', true, 0],
    ['dropped-1', false, 1000],
  ] as const) {
    const root = shop.tracer.startSpan('POST /order', {
      kind: SpanKind.SERVER,
      startTime: at(start),
      attributes: { 'faultline.correlation_id': id, 'http.request.method': 'POST', 'url.path': '/order' },
    });
    const toStock = call(root, id, STOCK_PORT, '503', start + 5);
    if (kept) {
      const server = stock.tracer.startSpan(
        'GET /reserve',
        {
          kind: SpanKind.SERVER,
          startTime: at(start + 7),
          attributes: {
            'faultline.correlation_id': id,
            'http.request.method': 'GET',
            'url.path': '/reserve',
            'server.address': '127.0.0.1',
            'server.port': STOCK_PORT,
            'http.response.status_code': 503,
            'faultline.class': 'transient',
            'faultline.source': 'http',
            'faultline.code': '503',
          },
        },
        // stock's sampler kept this trace at 25%: its span carries th:c (the child of a remote
        // parent takes the tracestate the parent context holds).
        trace.setSpanContext(context.active(), {
          ...toStock.spanContext(),
          traceState: createTraceState('ot=th:c'),
        }),
      );
      ends.push([server, start + 25, true]);
    } else call(root, id, VENDOR_PORT, '429', start + 40);
    ends.push([root, start + 80, true]);
  }
  for (const [span, end, failed] of ends) {
    if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end(at(end));
  }
  await Promise.all([shop.provider.shutdown(), stock.provider.shutdown()]);
}

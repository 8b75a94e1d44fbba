import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

/**
 * One request whose failure travels as a log record, and a failure only a log record shows, sent
 * through the real OpenTelemetry JS trace and log exporters (OTLP/HTTP protobuf), as a Java
 * service under OTEL_SEMCONV_EXCEPTION_SIGNAL_OPT_IN=logs and a preloaded worker export them:
 * - `orders-api`: SERVER `POST /orders` (an INFO record "order accepted" in it) over CLIENT
 *   `UPDATE stock` (PostgreSQL), failed with status ERROR only, its PSQLException deadlock in an
 *   ERROR record of that span: one failure, transient 40P01 (PostgreSQL's deadlock_detected).
 * - `orders-worker`: a caught ECONNREFUSED logged outside any span, in the request (its
 *   correlation id is the request's trace id), with the envelope the preload gives it: one failure
 *   only that record shows, transient ECONNREFUSED.
 * Times are a few minutes ago, to the millisecond given here, so the page's times are known.
 */
export interface LoggedFailuresTruth {
  traceId: string;
  /** Milliseconds since the epoch of each record. */
  acceptedAt: number;
  deadlockAt: number;
  workerAt: number;
}

export async function sendLoggedFailures(otlpBaseUrl: string): Promise<LoggedFailuresTruth> {
  const resource = (service: string) => resourceFromAttributes({ 'service.name': service });
  const tracerProvider = new BasicTracerProvider({
    resource: resource('orders-api'),
    spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${otlpBaseUrl}/v1/traces` }))],
  });
  const logProvider = (service: string) =>
    new LoggerProvider({
      resource: resource(service),
      processors: [
        new SimpleLogRecordProcessor({ exporter: new OTLPLogExporter({ url: `${otlpBaseUrl}/v1/logs` }) }),
      ],
    });
  const apiLogs = logProvider('orders-api');
  const workerLogs = logProvider('orders-worker');
  const tracer = tracerProvider.getTracer('@faultline/logged-failures-e2e');
  const start = Date.now() - 3 * 60_000;
  const server = tracer.startSpan('POST /orders', {
    kind: SpanKind.SERVER,
    startTime: new Date(start),
    attributes: { 'http.request.method': 'POST', 'url.path': '/orders', 'http.route': '/orders' },
  });
  const serverCtx = trace.setSpan(context.active(), server);
  const client = tracer.startSpan(
    'UPDATE stock',
    {
      kind: SpanKind.CLIENT,
      startTime: new Date(start + 5),
      attributes: {
        'db.system.name': 'postgresql',
        'db.namespace': 'orders',
        'db.query.text': 'update stock set qty = qty - $1 where sku = $2',
        'server.address': 'pg.internal',
      },
    },
    serverCtx,
  );
  const truth: LoggedFailuresTruth = {
    traceId: server.spanContext().traceId,
    acceptedAt: start + 2,
    deadlockAt: start + 30,
    workerAt: start + 60,
  };
  apiLogs.getLogger('com.example.orders.OrderController').emit({
    timestamp: truth.acceptedAt,
    severityNumber: SeverityNumber.INFO,
    severityText: 'INFO',
    body: 'order accepted',
    context: serverCtx,
  });
  apiLogs.getLogger('com.example.orders.StockRepository').emit({
    timestamp: truth.deadlockAt,
    severityNumber: SeverityNumber.ERROR,
    severityText: 'ERROR',
    body: 'Reserving stock failed',
    attributes: {
      'exception.type': 'org.postgresql.util.PSQLException',
      'exception.message': 'ERROR: deadlock detected',
    },
    context: trace.setSpan(context.active(), client),
  });
  client.setStatus({ code: SpanStatusCode.ERROR });
  client.end(new Date(start + 31));
  server.end(new Date(start + 40));
  // Logged outside any span: the record is the failure, with the envelope the preload gives it.
  workerLogs.getLogger('@opentelemetry/instrumentation-pino').emit({
    timestamp: truth.workerAt,
    severityNumber: SeverityNumber.ERROR,
    severityText: 'error',
    body: 'worker could not reach the queue',
    attributes: {
      'exception.type': 'ECONNREFUSED',
      'exception.message': 'connect ECONNREFUSED 10.0.0.7:5672',
      'faultline.class': 'transient',
      'faultline.source': 'network',
      'faultline.code': 'ECONNREFUSED',
      'faultline.message': 'connect ECONNREFUSED 10.0.0.7:5672',
      'faultline.retryable': true,
      'faultline.correlation_id': truth.traceId,
    },
  });
  for (const p of [apiLogs, workerLogs]) {
    await p.forceFlush();
    await p.shutdown();
  }
  await tracerProvider.forceFlush();
  await tracerProvider.shutdown();
  return truth;
}

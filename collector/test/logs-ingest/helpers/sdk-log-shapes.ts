import { randomBytes } from 'node:crypto';

/**
 * Failures as other languages' OpenTelemetry SDKs report them once exceptions travel as log records
 * (`OTEL_SEMCONV_EXCEPTION_SIGNAL_OPT_IN=logs`, or an app's logger bridged to OTLP): a failed CLIENT
 * span whose status says only ERROR, and a log record in that span's context with `exception.type`,
 * `exception.message` and `exception.stacktrace`. Each case cites where its shapes come from. The
 * expected class and code are what the failure means in the vendor's documentation, written by
 * hand, not read from the classifier.
 */

type J = Record<string, unknown>;

export interface Expected {
  class: string;
  code: string;
  source: string;
}

export interface LoggedFailureCase {
  name: string;
  /** resource service.name (a suffix keeps each run's services apart). */
  service: string;
  /** Where the shapes come from. */
  shapes: string;
  /** The span (no ids, times): absent for a record logged outside any span. */
  span?: J;
  /** The log record (no ids, times) and the scope (logger) it came from. */
  record: J;
  logger: string;
  /** What a person would call the failure; null when nothing failed. */
  expect: Expected | null;
}

const kv = (key: string, value: string | number) =>
  typeof value === 'number'
    ? { key, value: { intValue: String(value) } }
    : { key, value: { stringValue: value } };

const ERROR = { code: 2 };

export const CASES: LoggedFailureCase[] = [
  {
    name: 'Java JDBC: PostgreSQL deadlock, the exception logged by the agent, not on the span',
    service: 'orders-java',
    shapes:
      'opentelemetry-java-instrumentation jdbc (db.system, db.name, server.*) under OTEL_SEMCONV_EXCEPTION_SIGNAL_OPT_IN=logs; logback appender attributes (code.namespace, thread.name); org.postgresql.util.PSQLException',
    span: {
      name: 'UPDATE orders.stock',
      kind: 3,
      attributes: [
        kv('db.system', 'postgresql'),
        kv('db.name', 'orders'),
        kv('db.operation', 'UPDATE'),
        kv('db.statement', 'update stock set qty = qty - ? where sku = ?'),
        kv('server.address', 'pg.internal'),
        kv('server.port', 5432),
      ],
      status: ERROR,
    },
    logger: 'com.example.orders.StockRepository',
    record: {
      severityNumber: 17,
      severityText: 'ERROR',
      body: { stringValue: 'Reserving stock failed' },
      attributes: [
        kv('exception.type', 'org.postgresql.util.PSQLException'),
        kv(
          'exception.message',
          'ERROR: deadlock detected\n  Detail: Process 4242 waits for ShareLock on transaction 1001; blocked by process 4343.',
        ),
        kv(
          'exception.stacktrace',
          'org.postgresql.util.PSQLException: ERROR: deadlock detected\n\tat org.postgresql.core.v3.QueryExecutorImpl.receiveErrorResponse(QueryExecutorImpl.java:2713)\n\tat com.example.orders.StockRepository.reserve(StockRepository.java:41)',
        ),
        kv('code.namespace', 'com.example.orders.StockRepository'),
        kv('code.function', 'reserve'),
        kv('thread.name', 'http-nio-8080-exec-3'),
      ],
    },
    // 40P01 deadlock_detected (PostgreSQL Appendix A): the server rolled back; rerun it.
    expect: { class: 'transient', code: '40P01', source: 'db' },
  },
  {
    name: 'Python psycopg: unique violation, logger.exception in the request',
    service: 'signup-py',
    shapes:
      'opentelemetry-instrumentation-psycopg (db.system, db.name); opentelemetry-sdk LoggingHandler (exception.type = the class __name__, code.filepath/function/lineno); psycopg.errors.UniqueViolation',
    span: {
      name: 'INSERT',
      kind: 3,
      attributes: [
        kv('db.system', 'postgresql'),
        kv('db.name', 'app'),
        kv('db.statement', 'INSERT INTO users (email) VALUES (%s)'),
        kv('net.peer.name', 'pg.internal'),
        kv('net.peer.port', 5432),
      ],
      status: ERROR,
    },
    logger: 'signup.views',
    record: {
      severityNumber: 17,
      severityText: 'ERROR',
      body: { stringValue: 'could not create user' },
      attributes: [
        kv('exception.type', 'UniqueViolation'),
        kv(
          'exception.message',
          'duplicate key value violates unique constraint "users_email_key"\nDETAIL:  Key (email)=(a@example.com) already exists.',
        ),
        kv(
          'exception.stacktrace',
          'Traceback (most recent call last):\n  File "/app/signup/views.py", line 27, in create\n    cur.execute(INSERT_USER, (email,))\npsycopg.errors.UniqueViolation: duplicate key value violates unique constraint "users_email_key"',
        ),
        kv('code.filepath', '/app/signup/views.py'),
        kv('code.function', 'create'),
        kv('code.lineno', 29),
      ],
    },
    // 23505 unique_violation: the request must change; no retry helps.
    expect: { class: 'validation', code: '23505', source: 'db' },
  },
  {
    name: 'Python botocore: DynamoDB throttled, the 400 on the span says nothing of why',
    service: 'ingest-py',
    shapes:
      'opentelemetry-instrumentation-botocore (rpc.system aws-api, rpc.service, rpc.method, http.status_code); LoggingHandler; botocore.exceptions.ClientError text',
    span: {
      name: 'DynamoDB.PutItem',
      kind: 3,
      attributes: [
        kv('rpc.system', 'aws-api'),
        kv('rpc.service', 'DynamoDB'),
        kv('rpc.method', 'PutItem'),
        kv('aws.region', 'eu-west-1'),
        kv('http.status_code', 400),
      ],
      status: ERROR,
    },
    logger: 'ingest.writer',
    record: {
      severityNumber: 17,
      severityText: 'ERROR',
      body: { stringValue: 'write failed' },
      attributes: [
        kv('exception.type', 'ClientError'),
        kv(
          'exception.message',
          'An error occurred (ThrottlingException) when calling the PutItem operation (reached max retries: 4): Rate exceeded',
        ),
        kv(
          'exception.stacktrace',
          'Traceback (most recent call last):\n  File "/app/ingest/writer.py", line 12, in put\nbotocore.exceptions.ClientError: An error occurred (ThrottlingException) when calling the PutItem operation (reached max retries: 4): Rate exceeded',
        ),
      ],
    },
    // ThrottlingException (DynamoDB error reference): back off and retry.
    expect: { class: 'rate_limit', code: 'ThrottlingException', source: 'sdk' },
  },
  {
    name: '.NET SqlClient: SQL Server deadlock victim, ILogger.LogError(ex, …)',
    service: 'billing-dotnet',
    shapes:
      'OpenTelemetry.Instrumentation.SqlClient (db.system.name microsoft.sql_server, db.namespace, server.address) without RecordException; OpenTelemetry.Extensions.Logging (the formatted message as body, {InvoiceId} as an attribute, exception.*); Microsoft.Data.SqlClient.SqlException',
    span: {
      name: 'billing',
      kind: 3,
      attributes: [
        kv('db.system.name', 'microsoft.sql_server'),
        kv('db.namespace', 'billing'),
        kv('server.address', 'sql01'),
      ],
      status: ERROR,
    },
    logger: 'Billing.InvoicePoster',
    record: {
      severityNumber: 17,
      severityText: 'Error',
      body: { stringValue: 'Failed to post invoice 42' },
      attributes: [
        kv('InvoiceId', 42),
        kv('exception.type', 'Microsoft.Data.SqlClient.SqlException'),
        kv(
          'exception.message',
          'Transaction (Process ID 52) was deadlocked on lock resources with another process and has been chosen as the deadlock victim. Rerun the transaction.',
        ),
        kv(
          'exception.stacktrace',
          'Microsoft.Data.SqlClient.SqlException (0x80131904): Transaction (Process ID 52) was deadlocked …\n   at Billing.InvoicePoster.PostAsync(Int32 invoiceId)',
        ),
      ],
    },
    // Error 1205 (SQL Server docs): the victim's transaction was rolled back; rerun it.
    expect: { class: 'transient', code: '1205', source: 'db' },
  },
  {
    name: 'Go pgx: the same deadlock both ways, an exception event on the span and a record',
    service: 'stock-go',
    shapes:
      'otelpgx with span.RecordError (exception event: *pgconn.PgError); otelslog bridge with exception attributes added by the app',
    span: {
      name: 'UPDATE stock',
      kind: 3,
      attributes: [kv('db.system.name', 'postgresql'), kv('db.namespace', 'stock')],
      status: { code: 2, message: 'ERROR: deadlock detected (SQLSTATE 40P01)' },
      events: [
        {
          name: 'exception',
          attributes: [
            kv('exception.type', '*pgconn.PgError'),
            kv('exception.message', 'ERROR: deadlock detected (SQLSTATE 40P01)'),
          ],
        },
      ],
    },
    logger: 'github.com/example/stock',
    record: {
      severityNumber: 17,
      severityText: 'ERROR',
      body: { stringValue: 'reserve failed' },
      attributes: [
        kv('exception.type', '*pgconn.PgError'),
        kv('exception.message', 'ERROR: deadlock detected (SQLSTATE 40P01)'),
      ],
    },
    expect: { class: 'transient', code: '40P01', source: 'db' },
  },
  {
    name: 'Python worker with no span: SQS throttled, the queue named in the record',
    service: 'ingest-worker-py',
    shapes: 'a consumer loop outside any span; LoggingHandler with extra={"server.address": …}',
    logger: 'ingest.consumer',
    record: {
      severityNumber: 17,
      severityText: 'ERROR',
      body: { stringValue: 'receive failed' },
      attributes: [
        kv('server.address', 'sqs.eu-west-1.amazonaws.com'),
        kv('exception.type', 'ClientError'),
        kv(
          'exception.message',
          'An error occurred (ThrottlingException) when calling the ReceiveMessage operation: Rate exceeded',
        ),
      ],
    },
    expect: { class: 'rate_limit', code: 'ThrottlingException', source: 'sdk' },
  },
  {
    name: '.NET background service with no activity: SQL Server deadlock victim',
    service: 'billing-worker-dotnet',
    shapes: 'a BackgroundService loop with no Activity; OpenTelemetry.Extensions.Logging; SqlException',
    logger: 'Billing.Nightly',
    record: {
      severityNumber: 17,
      severityText: 'Error',
      body: { stringValue: 'Nightly close failed' },
      attributes: [
        kv('exception.type', 'Microsoft.Data.SqlClient.SqlException'),
        kv(
          'exception.message',
          'Transaction (Process ID 61) was deadlocked on lock resources with another process and has been chosen as the deadlock victim. Rerun the transaction.',
        ),
      ],
    },
    expect: { class: 'transient', code: '1205', source: 'db' },
  },
  {
    name: 'an INFO line',
    service: 'billing-dotnet',
    shapes: 'ILogger.LogInformation',
    logger: 'Billing.InvoicePoster',
    record: {
      severityNumber: 9,
      severityText: 'Information',
      body: { stringValue: 'Posted invoice 41' },
      attributes: [kv('InvoiceId', 41)],
    },
    expect: null,
  },
];

export function traceId(): string {
  return randomBytes(16).toString('hex');
}

function spanId(): string {
  return randomBytes(8).toString('hex');
}

export interface Scenario {
  /** ExportTraceServiceRequest, OTLP/JSON object. */
  traces: J;
  /** ExportLogsServiceRequest, OTLP/JSON object. */
  logs: J;
  /** `service` → its expected failures, counted once each. */
  expected: Map<string, (Expected & { n: number })[]>;
  services: string[];
}

/**
 * Every case under services suffixed `suffix` (so runs in one store stay apart), at `atMs`: the
 * spans in one request, the records in another, each record in its span's context.
 */
export function scenario(suffix: string, atMs: number): Scenario {
  const ns = (offsetMs: number) => `${BigInt(atMs + offsetMs) * 1_000_000n + 123_456_789n}`;
  const spans: { service: string; span: J }[] = [];
  const records: { service: string; logger: string; record: J }[] = [];
  const expected = new Map<string, (Expected & { n: number })[]>();
  CASES.forEach((c, i) => {
    const service = `${c.service}-${suffix}`;
    if (!expected.has(service)) expected.set(service, []);
    if (c.expect) expected.get(service)!.push({ ...c.expect, n: 1 });
    const ids = c.span ? { traceId: traceId(), spanId: spanId() } : {};
    if (c.span) {
      spans.push({
        service,
        span: {
          ...c.span,
          ...ids,
          startTimeUnixNano: ns(i * 10),
          endTimeUnixNano: ns(i * 10 + 5),
          events: ((c.span.events as J[]) ?? []).map((e) => ({ ...e, timeUnixNano: ns(i * 10 + 4) })),
        },
      });
    }
    records.push({
      service,
      logger: c.logger,
      record: {
        ...c.record,
        ...ids,
        flags: c.span ? 1 : 0,
        timeUnixNano: ns(i * 10 + 4),
        observedTimeUnixNano: ns(i * 10 + 4),
      },
    });
  });
  const byService = <T extends { service: string }>(items: T[]) => {
    const m = new Map<string, T[]>();
    for (const item of items) m.set(item.service, [...(m.get(item.service) ?? []), item]);
    return m;
  };
  const resource = (service: string) => ({ attributes: [kv('service.name', service)] });
  return {
    traces: {
      resourceSpans: [...byService(spans)].map(([service, items]) => ({
        resource: resource(service),
        scopeSpans: [
          { scope: { name: 'instrumentation', version: '2.0.0' }, spans: items.map((s) => s.span) },
        ],
      })),
    },
    logs: {
      resourceLogs: [...byService(records)].map(([service, items]) => ({
        resource: resource(service),
        scopeLogs: items.map((r) => ({ scope: { name: r.logger }, logRecords: [r.record] })),
      })),
    },
    expected,
    services: [...expected.keys()],
  };
}

import { attributes } from '@faultline/instrumentation';
import { describe, expect, it } from 'vitest';
import { classifyRow } from '../../src/classify/classify-row.js';
import { classifiedAt, spanRow, TRACE_ID } from './span-row.js';

/**
 * Golden cases: spans in the shapes other languages' OpenTelemetry SDKs and drivers produce (each
 * case cites the instrumentation it follows), classified at ingest. Expected class and code come
 * from what the failure means in the vendor's own documentation, not from running the classifier.
 */
interface Case {
  name: string;
  /** Where the span's shape comes from. */
  source: string;
  span: Parameters<typeof spanRow>[0];
  expect: { class: string; source: string; code: string; retryable: boolean; retry_after?: string };
}

const CASES: Case[] = [
  {
    name: 'Python psycopg2: deadlock, an exception class named after the condition',
    source:
      'opentelemetry-instrumentation-dbapi (record_exception on the cursor span); psycopg2.errors.DeadlockDetected, SQLSTATE 40P01 (PostgreSQL Appendix A)',
    span: {
      status: 'Error',
      attrs: { 'db.system': 'postgresql', 'db.name': 'test' },
      exception: {
        'exception.type': 'psycopg2.errors.DeadlockDetected',
        'exception.message':
          'deadlock detected\nDETAIL:  Process 4242 waits for ShareLock on transaction 1001',
      },
    },
    // 40P01: the server rolled the transaction back; rerunning it is the documented remedy.
    expect: { class: 'transient', source: 'db', code: '40P01', retryable: true, retry_after: '0' },
  },
  {
    name: 'Python psycopg (3): unique violation',
    source: 'opentelemetry-instrumentation-psycopg; psycopg.errors.UniqueViolation = 23505',
    span: {
      status: 'Error',
      attrs: { 'db.system': 'postgresql' },
      exception: {
        'exception.type': 'psycopg.errors.UniqueViolation',
        'exception.message': 'duplicate key value violates unique constraint "users_pkey"',
      },
    },
    // 23505: the request itself must change (another key); no retry helps.
    expect: { class: 'validation', source: 'db', code: '23505', retryable: false },
  },
  {
    name: 'Go pgx: PgError text with (SQLSTATE …), stable db.system.name',
    source: 'otelpgx / otelsql record err.Error(); pgconn.PgError.Error() = "ERROR: <msg> (SQLSTATE <code>)"',
    span: {
      status: 'Error',
      statusMessage: 'ERROR: deadlock detected (SQLSTATE 40P01)',
      attrs: { 'db.system.name': 'postgresql' },
    },
    expect: { class: 'transient', source: 'db', code: '40P01', retryable: true, retry_after: '0' },
  },
  {
    name: 'Java JDBC PostgreSQL: PSQLException message only',
    source: 'opentelemetry-java-instrumentation jdbc (recordException); org.postgresql.util.PSQLException',
    span: {
      status: 'Error',
      attrs: { 'db.system': 'postgresql' },
      exception: {
        'exception.type': 'org.postgresql.util.PSQLException',
        'exception.message': 'ERROR: could not serialize access due to concurrent update',
      },
    },
    // 40001 serialization_failure: retry the transaction.
    expect: { class: 'transient', source: 'db', code: '40001', retryable: true, retry_after: '0' },
  },
  {
    name: 'Java JDBC MySQL: deadlock',
    source:
      'opentelemetry-java-instrumentation jdbc; Connector/J MySQLTransactionRollbackException; ER_LOCK_DEADLOCK 1213 (MySQL error reference)',
    span: {
      status: 'Error',
      attrs: { 'db.system': 'mysql' },
      exception: {
        'exception.type': 'com.mysql.cj.jdbc.exceptions.MySQLTransactionRollbackException',
        'exception.message': 'Deadlock found when trying to get lock; try restarting transaction',
      },
    },
    expect: { class: 'transient', source: 'db', code: '1213', retryable: true, retry_after: '0' },
  },
  {
    name: 'Go go-sql-driver/mysql: "Error 1062 (23000): …"',
    source: 'otelsql records err.Error(); mysql.MySQLError.Error() = "Error %d (%s): %s"',
    span: {
      status: 'Error',
      statusMessage: "Error 1062 (23000): Duplicate entry '1' for key 'users.PRIMARY'",
      attrs: { 'db.system': 'mysql' },
    },
    // ER_DUP_ENTRY: the row exists; change the request.
    expect: { class: 'validation', source: 'db', code: '1062', retryable: false },
  },
  {
    name: 'Java JDBC SQL Server: deadlock victim, message only',
    source:
      'opentelemetry-java-instrumentation jdbc; com.microsoft.sqlserver.jdbc.SQLServerException; error 1205',
    span: {
      status: 'Error',
      attrs: { 'db.system': 'mssql' },
      exception: {
        'exception.type': 'com.microsoft.sqlserver.jdbc.SQLServerException',
        'exception.message':
          'Transaction (Process ID 52) was deadlocked on lock resources with another process and has been chosen as the deadlock victim. Rerun the transaction.',
      },
    },
    expect: { class: 'transient', source: 'db', code: '1205', retryable: true, retry_after: '0' },
  },
  {
    name: '.NET SqlClient: db.response.status_code carries SqlException.Number',
    source:
      'OpenTelemetry.Instrumentation.SqlClient (stable semconv: db.response.status_code = SqlException.Number, RecordException)',
    span: {
      status: 'Error',
      attrs: { 'db.system.name': 'microsoft.sql_server', 'db.response.status_code': '18456' },
      exception: {
        'exception.type': 'Microsoft.Data.SqlClient.SqlException',
        'exception.message': "Login failed for user 'app'.",
      },
    },
    // 18456: login failed — credentials.
    expect: { class: 'authentication', source: 'db', code: '18456', retryable: false },
  },
  {
    name: 'Python botocore: ClientError text carries the AWS code',
    source:
      'opentelemetry-instrumentation-botocore (rpc.system aws-api, http.status_code, record_exception); botocore ClientError MSG_TEMPLATE',
    span: {
      status: 'Error',
      attrs: { 'rpc.system': 'aws-api', 'rpc.service': 'DynamoDB', 'http.status_code': '400' },
      exception: {
        'exception.type': 'botocore.exceptions.ClientError',
        'exception.message':
          'An error occurred (ThrottlingException) when calling the PutItem operation (reached max retries: 4): Rate exceeded',
      },
    },
    // AWS: ThrottlingException is throttling although sent with a 400.
    expect: { class: 'rate_limit', source: 'sdk', code: 'ThrottlingException', retryable: true },
  },
  {
    name: 'Go aws-sdk-go-v2: OperationError text "api error <Code>:"',
    source: 'otelaws; smithy-go OperationError / awshttp.ResponseError text',
    span: {
      status: 'Error',
      statusMessage:
        'operation error DynamoDB: GetItem, https response error StatusCode: 400, RequestID: X, api error AccessDeniedException: not authorized',
      attrs: { 'rpc.system': 'aws-api', 'http.response.status_code': '400' },
    },
    expect: { class: 'authentication', source: 'sdk', code: 'AccessDeniedException', retryable: false },
  },
  {
    name: 'Python requests: 429 with a captured Retry-After (old semconv)',
    source:
      'opentelemetry-instrumentation-requests (http.status_code; OTEL_INSTRUMENTATION_HTTP_CAPTURE_HEADERS_CLIENT_RESPONSE → http.response.header.retry_after as a list)',
    span: {
      attrs: { 'http.method': 'GET', 'http.status_code': '429', 'http.response.header.retry-after': '["7"]' },
    },
    expect: { class: 'rate_limit', source: 'http', code: '429', retryable: true, retry_after: '7' },
  },
  {
    name: 'Python requests: refused connection',
    source:
      'opentelemetry-instrumentation-requests (record_exception of requests.exceptions.ConnectionError)',
    span: {
      status: 'Error',
      attrs: { 'http.method': 'GET', 'http.url': 'http://localhost:1/' },
      exception: {
        'exception.type': 'requests.exceptions.ConnectionError',
        'exception.message':
          "HTTPConnectionPool(host='localhost', port=1): Max retries exceeded with url: / (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f>: Failed to establish a new connection: [Errno 111] Connection refused'))",
      },
    },
    expect: { class: 'transient', source: 'http', code: 'ECONNREFUSED', retryable: true },
  },
  {
    name: 'Go otelhttp: refused connection, status description only',
    source: 'otelhttp Transport: span.RecordError(err); span.SetStatus(codes.Error, err.Error())',
    span: {
      status: 'Error',
      statusMessage: 'Get "http://localhost:1": dial tcp 127.0.0.1:1: connect: connection refused',
      attrs: { 'http.request.method': 'GET' },
    },
    expect: { class: 'transient', source: 'http', code: 'ECONNREFUSED', retryable: true },
  },
  {
    name: 'Java OkHttp: 401, stable semconv with error.type',
    source: 'opentelemetry-java-instrumentation okhttp-3.0 (http.response.status_code, error.type = "401")',
    span: {
      attrs: { 'http.request.method': 'GET', 'http.response.status_code': '401', 'error.type': '401' },
    },
    expect: { class: 'authentication', source: 'http', code: '401', retryable: false },
  },
  {
    name: 'grpc-java / grpcio client: UNAVAILABLE',
    source: 'opentelemetry-java-instrumentation grpc-1.6 / grpcio instrumentation (rpc.grpc.status_code)',
    span: {
      status: 'Error',
      statusMessage: 'UNAVAILABLE: io exception',
      attrs: { 'rpc.system': 'grpc', 'rpc.service': 'pkg.Svc', 'rpc.grpc.status_code': '14' },
    },
    expect: { class: 'transient', source: 'rpc', code: 'UNAVAILABLE', retryable: true },
  },
  {
    name: 'gRPC, RPC semconv 1.37+: rpc.response.status_code by name',
    source: 'semantic-conventions rpc spans (rpc.response.status_code = status name)',
    span: {
      status: 'Error',
      attrs: { 'rpc.system.name': 'grpc', 'rpc.response.status_code': 'RESOURCE_EXHAUSTED' },
    },
    expect: { class: 'rate_limit', source: 'rpc', code: 'RESOURCE_EXHAUSTED', retryable: true },
  },
  {
    name: 'Python redis-py: ResponseError',
    source: 'opentelemetry-instrumentation-redis (db.system redis, record_exception)',
    span: {
      status: 'Error',
      attrs: { 'db.system': 'redis' },
      exception: {
        'exception.type': 'redis.exceptions.ResponseError',
        'exception.message': 'WRONGTYPE Operation against a key holding the wrong kind of value',
      },
    },
    // WRONGTYPE: the command does not fit the key's type; the request must change.
    expect: { class: 'validation', source: 'db', code: 'WRONGTYPE', retryable: false },
  },
  {
    name: 'Server span 503 (ASP.NET Core / otelhttp handler)',
    source:
      "server spans: http.response.status_code ≥ 500 is the server's failure (semconv http spans, status)",
    span: { kind: 'Server', attrs: { 'http.request.method': 'GET', 'http.response.status_code': '503' } },
    expect: { class: 'transient', source: 'http', code: '503', retryable: true },
  },
  {
    name: 'Server span 404: a server that answered 4xx failed that request, as under the preload',
    source: 'failingHttpStatusOf: the rule the preload applies to a server span (4xx and 5xx)',
    span: { kind: 'Server', attrs: { 'http.request.method': 'GET', 'http.response.status_code': '404' } },
    // Not Found: the request will not succeed as sent; the caller's span, if any, is its echo.
    expect: { class: 'permanent', source: 'http', code: '404', retryable: false },
  },
  {
    name: 'Server span 429 with its Retry-After captured (headersToSpanAttributes)',
    source: 'instrumentation-http server.responseHeaders: http.response.header.retry-after = ["5"]',
    span: {
      kind: 'Server',
      attrs: {
        'http.request.method': 'GET',
        'http.response.status_code': '429',
        'http.response.header.retry-after': '["5"]',
      },
    },
    // Too Many Requests: back off, for as long as the service said.
    expect: { class: 'rate_limit', source: 'http', code: '429', retryable: true, retry_after: '5' },
  },
];

describe('spans of other SDKs, classified at ingest', () => {
  it.each(CASES)('$name', (c) => {
    const { attrs: a, core } = classifiedAt(c.span);
    expect({
      ...core,
      ...(a[attributes.ATTR_RETRY_AFTER] !== undefined
        ? { retry_after: a[attributes.ATTR_RETRY_AFTER] }
        : {}),
    }).toEqual(c.expect);
    expect(a[attributes.ATTR_CLASSIFIED_BY]).toBe('collector');
    expect(a[attributes.ATTR_CORRELATION_ID]).toBe(TRACE_ID);
    expect(a[attributes.ATTR_MESSAGE]).not.toBe('');
    expect(() => JSON.parse(a[attributes.ATTR_RAW]!)).not.toThrow();
  });
});

describe('what is left alone', () => {
  it('successes, a server 3xx, and a span whose status is OK', () => {
    const spans: Parameters<typeof spanRow>[0][] = [
      { attrs: { 'http.request.method': 'GET', 'http.response.status_code': '200' } },
      { kind: 'Server', attrs: { 'http.response.status_code': '304' } },
      { status: 'Ok', exception: { 'exception.type': 'TypeError' } },
      { attrs: { 'rpc.system': 'grpc', 'rpc.grpc.status_code': '0' } },
    ];
    for (const span of spans) {
      const row = spanRow(span);
      const before = JSON.stringify(row);
      classifyRow(row);
      expect(JSON.stringify(row)).toBe(before);
    }
  });

  it('a span the preload classified stays byte-identical, even if its envelope disagrees', () => {
    const row = spanRow({
      status: 'Error',
      attrs: {
        'http.response.status_code': '503',
        'faultline.class': 'rate_limit',
        'faultline.code': 'x',
        'faultline.correlation_id': 'c1',
      },
    });
    const before = JSON.stringify(row);
    classifyRow(row);
    expect(JSON.stringify(row)).toBe(before);
  });

  it('a span the preload saw and left unclassified (a transport request) stays as it is', () => {
    const row = spanRow({
      status: 'Error',
      attrs: { 'http.response.status_code': '503', 'faultline.call_role': 'transport' },
    });
    const before = JSON.stringify(row);
    classifyRow(row);
    expect(JSON.stringify(row)).toBe(before);
  });
});

describe('correlation id and redaction', () => {
  it('takes a captured x-correlation-id header, else a baggage-copied attribute, else the trace id', () => {
    const fromHeader = spanRow({
      status: 'Error',
      attrs: { 'http.request.header.x-correlation-id': '["req-7"]', correlation_id: 'bag-1' },
    });
    classifyRow(fromHeader);
    expect(fromHeader.SpanAttributes[attributes.ATTR_CORRELATION_ID]).toBe('req-7');
    const fromBaggage = spanRow({ status: 'Error', attrs: { correlation_id: 'bag-1' } });
    classifyRow(fromBaggage);
    expect(fromBaggage.SpanAttributes[attributes.ATTR_CORRELATION_ID]).toBe('bag-1');
  });

  it('redacts credentials in the message and raw, as the preload does', () => {
    const row = spanRow({
      status: 'Error',
      statusMessage: 'connect failed for postgres://app:hunter2@db/x password=hunter2',
    });
    classifyRow(row);
    const a = row.SpanAttributes;
    expect(a[attributes.ATTR_MESSAGE]).not.toContain('hunter2');
    expect(a[attributes.ATTR_RAW]).not.toContain('hunter2');
  });
});

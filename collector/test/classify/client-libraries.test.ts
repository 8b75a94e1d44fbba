import { attributes } from '@faultline/instrumentation';
import { describe, expect, it } from 'vitest';
import { classifiedAt, type spanRow } from './span-row.js';

/**
 * The failures of instrumentation/test/libraries, as a stock OpenTelemetry JS span records them:
 * `exception.type` is the error's `code` when it has one, else its `name` (sdk-trace
 * Span.recordException); `exception.message` and the status message are its message. Each case
 * names the instrumentation whose recording it follows. The expected class, source and code are
 * the ones the preload gives for the same real failure (written out, not recomputed), so stock
 * and preload agree wherever the span carries the evidence.
 */
interface Case {
  name: string;
  source: string;
  span: Parameters<typeof spanRow>[0];
  expect: { class: string; source: string; code: string; retryable: boolean };
}

const exc = (type: string, message: string) => ({ 'exception.type': type, 'exception.message': message });

const CASES: Case[] = [
  {
    name: 'node-redis WRONGTYPE',
    source:
      'instrumentation-redis v4-v5 _endSpanWithResponse: recordException(SimpleError), name "Error", no code',
    span: {
      status: 'Error',
      attrs: { 'db.system': 'redis' },
      exception: exc('Error', 'WRONGTYPE Operation against a key holding the wrong kind of value'),
    },
    // The command does not fit the key's type.
    expect: { class: 'validation', source: 'db', code: 'WRONGTYPE', retryable: false },
  },
  {
    name: 'node-redis WRONGPASS on connect',
    source: 'instrumentation-redis v4-v5 patchedConnect: recordException(SimpleError)',
    span: {
      status: 'Error',
      attrs: { 'db.system': 'redis' },
      exception: exc('Error', 'WRONGPASS invalid username-password pair or user is disabled.'),
    },
    expect: { class: 'authentication', source: 'db', code: 'WRONGPASS', retryable: false },
  },
  {
    name: 'node-redis TimeoutReadError: only its text names it',
    source: 'instrumentation-redis v4-v5; @redis/client errors.js TimeoutReadError message',
    span: {
      status: 'Error',
      attrs: { 'db.system': 'redis' },
      exception: exc('Error', 'Command timed out after 100ms waiting for a reply; it may have been executed'),
    },
    // A slow server: back off and retry.
    expect: { class: 'transient', source: 'db', code: 'TimeoutReadError', retryable: true },
  },
  {
    name: 'postgres.js role does not exist: the SQLSTATE as exception.type',
    source: 'recordException(PostgresError): code "28000" becomes exception.type',
    span: {
      status: 'Error',
      attrs: { 'db.system.name': 'postgresql' },
      exception: exc('28000', 'role "fl_lib_role_1" does not exist'),
    },
    // invalid_authorization_specification: the login is refused.
    expect: { class: 'authentication', source: 'db', code: '28000', retryable: false },
  },
  {
    name: 'postgres.js CONNECT_TIMEOUT',
    source: 'recordException(postgres.js Errors.connection): code CONNECT_TIMEOUT',
    span: {
      status: 'Error',
      attrs: { 'db.system.name': 'postgresql' },
      exception: exc('CONNECT_TIMEOUT', 'write CONNECT_TIMEOUT 127.0.0.1:5432'),
    },
    expect: { class: 'transient', source: 'db', code: 'CONNECT_TIMEOUT', retryable: true },
  },
  {
    name: 'pg-pool checkout timeout behind the sanitized exception',
    source:
      'instrumentation-pg handleConnectResult: recordException(sanitizedErrorMessage(err)), setStatus(err.message)',
    span: {
      status: 'Error',
      statusMessage: 'timeout exceeded when trying to connect',
      attrs: { 'db.system': 'postgresql' },
      exception: { 'exception.message': "PostgreSQL error of type 'Error' occurred (code: UNKNOWN)" },
    },
    // Every connection was busy: one comes back.
    expect: { class: 'transient', source: 'db', code: 'POOL_CONNECT_TIMEOUT', retryable: true },
  },
  {
    name: 'pg-pool with the database down',
    source: 'instrumentation-pg handleConnectResult, as above',
    span: {
      status: 'Error',
      statusMessage: 'connect ECONNREFUSED 127.0.0.1:5432',
      attrs: { 'db.system': 'postgresql' },
      exception: { 'exception.message': "PostgreSQL error of type 'Error' occurred (code: ECONNREFUSED)" },
    },
    expect: { class: 'transient', source: 'db', code: 'ECONNREFUSED', retryable: true },
  },
  {
    name: 'mysql (v1) query timeout',
    source: 'instrumentation-mysql: setStatus({ message: err.message }) only, no exception event',
    span: { status: 'Error', statusMessage: 'Query inactivity timeout', attrs: { 'db.system': 'mysql' } },
    expect: { class: 'transient', source: 'db', code: 'PROTOCOL_SEQUENCE_TIMEOUT', retryable: true },
  },
  {
    name: 'mysql (v1) refused login',
    source: 'instrumentation-mysql: status message "ER_ACCESS_DENIED_ERROR: …"',
    span: {
      status: 'Error',
      statusMessage: "ER_ACCESS_DENIED_ERROR: Access denied for user 'app'@'127.0.0.1' (using password: YES)",
      attrs: { 'db.system': 'mysql' },
    },
    expect: { class: 'authentication', source: 'db', code: '1045', retryable: false },
  },
  {
    name: 'amqplib passive declare of a missing queue → 404',
    source: 'recordException(amqplib channel close error): numeric code 404 becomes exception.type',
    span: {
      status: 'Error',
      attrs: { 'messaging.system': 'rabbitmq' },
      exception: exc(
        '404',
        `Operation failed: QueueDeclare; 404 (NOT-FOUND) with message "NOT_FOUND - no queue 'q' in vhost '/'"`,
      ),
    },
    expect: { class: 'permanent', source: 'messaging', code: '404', retryable: false },
  },
  {
    name: 'amqplib inequivalent redeclare → 406',
    source: 'as above',
    span: {
      status: 'Error',
      attrs: { 'messaging.system': 'rabbitmq' },
      exception: exc(
        '406',
        `Operation failed: QueueDeclare; 406 (PRECONDITION-FAILED) with message "PRECONDITION_FAILED - inequivalent arg 'durable'"`,
      ),
    },
    expect: { class: 'validation', source: 'messaging', code: '406', retryable: false },
  },
  {
    name: 'amqplib refused login: the reply code only in the text',
    source: 'recordException(amqplib handshake error): no code, name "Error"',
    span: {
      status: 'Error',
      attrs: { 'messaging.system': 'rabbitmq' },
      exception: exc(
        'Error',
        'Handshake terminated by server: 403 (ACCESS-REFUSED) with message "ACCESS_REFUSED - Login was refused using authentication mechanism PLAIN."',
      ),
    },
    expect: { class: 'authentication', source: 'messaging', code: '403', retryable: false },
  },
  {
    name: 'kafkajs NOT_LEADER_FOR_PARTITION from the producer span',
    source: 'instrumentation-kafkajs _endSpansOnPromise: error.type = constructor name, status message',
    span: {
      status: 'Error',
      statusMessage: 'This server is not the leader for that topic-partition',
      attrs: { 'messaging.system': 'kafka', 'error.type': 'KafkaJSProtocolError' },
    },
    // Leadership moved: refresh metadata and retry (kafkajs marks it retriable).
    expect: { class: 'transient', source: 'messaging', code: 'NOT_LEADER_FOR_PARTITION', retryable: true },
  },
  {
    name: 'kafkajs broker unreachable',
    source: 'instrumentation-kafkajs, as above',
    span: {
      status: 'Error',
      statusMessage: 'Connection error: connect ECONNREFUSED 127.0.0.1:9092',
      attrs: { 'messaging.system': 'kafka', 'error.type': 'KafkaJSNumberOfRetriesExceeded' },
    },
    expect: { class: 'transient', source: 'messaging', code: 'ECONNREFUSED', retryable: true },
  },
  {
    name: 'nats no responders',
    source: 'recordException(NatsError): code "503"',
    span: { status: 'Error', attrs: { 'messaging.system': 'nats' }, exception: exc('503', '503') },
    expect: { class: 'transient', source: 'messaging', code: '503', retryable: true },
  },
  {
    name: 'nats request timeout',
    source: 'recordException(NatsError): code TIMEOUT',
    span: { status: 'Error', attrs: { 'messaging.system': 'nats' }, exception: exc('TIMEOUT', 'TIMEOUT') },
    expect: { class: 'transient', source: 'messaging', code: 'TIMEOUT', retryable: true },
  },
  {
    name: 'nats authorization violation',
    source: 'recordException(NatsError): code AUTHORIZATION_VIOLATION',
    span: {
      status: 'Error',
      attrs: { 'messaging.system': 'nats' },
      exception: exc('AUTHORIZATION_VIOLATION', "'Authorization Violation'"),
    },
    expect: {
      class: 'authentication',
      source: 'messaging',
      code: 'AUTHORIZATION_VIOLATION',
      retryable: false,
    },
  },
  {
    name: 'nats connection refused',
    source: 'recordException(NatsError): code CONNECTION_REFUSED (chainedError ECONNREFUSED not recorded)',
    span: {
      status: 'Error',
      attrs: { 'messaging.system': 'nats' },
      exception: exc('CONNECTION_REFUSED', 'CONNECTION_REFUSED'),
    },
    expect: { class: 'transient', source: 'messaging', code: 'ECONNREFUSED', retryable: true },
  },
  {
    name: 'mqtt v5 refused CONNACK',
    source: 'recordException(ErrorWithReasonCode): code 135',
    span: {
      status: 'Error',
      attrs: { 'messaging.system': 'mqtt' },
      exception: exc('135', 'Connection refused: Not authorized'),
    },
    expect: { class: 'authentication', source: 'messaging', code: '135', retryable: false },
  },
  {
    name: 'mqtt v3.1.1 refused SUBACK: only the text says which reason',
    source: 'recordException(ErrorWithSubackPacket): no code, name is the class',
    span: {
      status: 'Error',
      attrs: { 'messaging.system': 'mqtt' },
      exception: exc('ErrorWithSubackPacket', 'Subscribe error: Unspecified error'),
    },
    expect: { class: 'permanent', source: 'messaging', code: '128', retryable: false },
  },
  {
    name: 'better-sqlite3 SQLITE_BUSY',
    source: 'recordException(SqliteError): code SQLITE_BUSY',
    span: {
      status: 'Error',
      attrs: { 'db.system.name': 'sqlite' },
      exception: exc('SQLITE_BUSY', 'database is locked'),
    },
    expect: { class: 'transient', source: 'db', code: 'SQLITE_BUSY', retryable: true },
  },
  {
    name: 'better-sqlite3 unique constraint',
    source: 'recordException(SqliteError): code SQLITE_CONSTRAINT_UNIQUE',
    span: {
      status: 'Error',
      attrs: { 'db.system.name': 'sqlite' },
      exception: exc('SQLITE_CONSTRAINT_UNIQUE', 'UNIQUE constraint failed: t.v'),
    },
    expect: { class: 'validation', source: 'db', code: 'SQLITE_CONSTRAINT_UNIQUE', retryable: false },
  },
  {
    name: 'mongodb duplicate key',
    source: 'instrumentation-mongodb: setStatus({ message: error.message }) only',
    span: {
      status: 'Error',
      statusMessage: 'E11000 duplicate key error collection: test.users index: _id_ dup key: { _id: 1 }',
      attrs: { 'db.system': 'mongodb' },
    },
    expect: { class: 'validation', source: 'db', code: '11000', retryable: false },
  },
  {
    name: 'got timeout on a stock http span',
    source:
      'instrumentation-http setSpanWithError: error.type = err.name, recordException(err): code ETIMEDOUT',
    span: {
      status: 'Error',
      attrs: { 'http.request.method': 'GET', 'error.type': 'TimeoutError' },
      exception: exc('ETIMEDOUT', "Timeout awaiting 'request' for 100ms"),
    },
    // A slow upstream: retry with backoff.
    expect: { class: 'transient', source: 'http', code: 'ETIMEDOUT', retryable: true },
  },
  {
    name: 'generic-pool acquire timeout',
    source: 'instrumentation-generic-pool: recordException(TimeoutError "ResourceRequest timed out")',
    span: { status: 'Error', exception: exc('TimeoutError', 'ResourceRequest timed out') },
    expect: { class: 'transient', source: 'unknown', code: 'POOL_ACQUIRE_TIMEOUT', retryable: true },
  },
  // A framework's handler span (no system of its own) records the error the handler failed with:
  // observed from express 5 and koa 3 under auto-instrumentations-node 0.81
  // (instrumentation/test/fixtures/frameworks/, collector/test/classify/server-frameworks.test.ts).
  {
    name: 'express handler span: a TypeError thrown by the handler',
    source: 'instrumentation-express request_handler: recordException(err), setStatus(err.message)',
    span: {
      kind: 'Internal',
      status: 'Error',
      statusMessage: "Cannot read properties of undefined (reading 'id')",
      attrs: { 'express.type': 'request_handler', 'express.name': '/bug', 'http.route': '/bug' },
      exception: exc('TypeError', "Cannot read properties of undefined (reading 'id')"),
    },
    // A bug: the same request fails the same way until the code changes.
    expect: { class: 'permanent', source: 'unknown', code: 'TypeError', retryable: false },
  },
  {
    name: 'koa middleware span: an http-errors 503, known by its name alone',
    source: 'instrumentation-koa: recordException(err), status left unset; http-errors sets no code',
    span: {
      kind: 'Internal',
      attrs: { 'koa.type': 'middleware', 'koa.name': 'routes' },
      exception: exc('ServiceUnavailableError', 'down for maintenance'),
    },
    // Service Unavailable: down for now (RFC 9110 §15.6.4); the code is the status the name states.
    expect: { class: 'transient', source: 'http', code: '503', retryable: true },
  },
  {
    name: 'express handler span: an http-errors 429',
    source: 'as above: createError(429) records exception.type TooManyRequestsError',
    span: {
      kind: 'Internal',
      status: 'Error',
      attrs: { 'express.type': 'request_handler' },
      exception: exc('TooManyRequestsError', 'slow down'),
    },
    expect: { class: 'rate_limit', source: 'http', code: '429', retryable: true },
  },
  {
    name: 'router span: a mysql2 refused login the handler let through',
    source: 'instrumentation-router: recordException(mysql2 error): code ER_ACCESS_DENIED_ERROR',
    span: {
      kind: 'Internal',
      attrs: { 'router.type': 'request_handler', 'http.route': '/mysql2-login' },
      exception: exc(
        'ER_ACCESS_DENIED_ERROR',
        "Access denied for user 'app'@'127.0.0.1' (using password: YES)",
      ),
    },
    // ER_ACCESS_DENIED_ERROR (1045): the credential is refused, as on the query span below it.
    expect: { class: 'authentication', source: 'db', code: '1045', retryable: false },
  },
  {
    name: 'express handler span: a mysql (v1) refused login, its code before the text',
    source: 'recordException(mysql error): message "ER_ACCESS_DENIED_ERROR: Access denied …"',
    span: {
      kind: 'Internal',
      status: 'Error',
      attrs: { 'express.type': 'request_handler' },
      exception: exc(
        'ER_ACCESS_DENIED_ERROR',
        "ER_ACCESS_DENIED_ERROR: Access denied for user 'app'@'127.0.0.1' (using password: YES)",
      ),
    },
    expect: { class: 'authentication', source: 'db', code: '1045', retryable: false },
  },
  {
    name: 'handler span: an MQTT 3.1.1 CONNACK refusal is no refused socket',
    source: 'recordException(mqtt.js ErrorWithReasonCode): code 5 becomes exception.type; no mqtt span',
    span: {
      kind: 'Internal',
      status: 'Error',
      attrs: { 'express.type': 'request_handler' },
      exception: exc('5', 'Connection refused: Not authorized'),
    },
    // MQTT 3.1.1 §3.2.2.3 return code 5: not authorized.
    expect: { class: 'authentication', source: 'messaging', code: '5', retryable: false },
  },
  {
    name: 'handler span: a Sequelize refused login',
    source:
      'recordException(SequelizeAccessDeniedError): sequelize v6 ConnectionError subclasses set a name and no code',
    span: {
      kind: 'Internal',
      status: 'Error',
      attrs: { 'express.type': 'request_handler' },
      exception: exc(
        'SequelizeAccessDeniedError',
        "Access denied for user 'app'@'127.0.0.1' (using password: YES)",
      ),
    },
    expect: { class: 'authentication', source: 'db', code: 'SequelizeAccessDeniedError', retryable: false },
  },
  {
    name: 'handler span: a postgres.js unique violation (no postgres.js span under stock)',
    source: 'recordException(PostgresError): code "23505" becomes exception.type',
    span: {
      kind: 'Internal',
      attrs: { 'koa.type': 'middleware' },
      exception: exc('23505', 'duplicate key value violates unique constraint "users_email_key"'),
    },
    // unique_violation: the row must change.
    expect: { class: 'validation', source: 'db', code: '23505', retryable: false },
  },
  {
    name: 'handler span: nats no responders (no nats span under stock)',
    source: 'recordException(NatsError): code and message both "503"',
    span: { kind: 'Internal', attrs: { 'express.type': 'request_handler' }, exception: exc('503', '503') },
    expect: { class: 'transient', source: 'messaging', code: '503', retryable: true },
  },
];

describe('client libraries, stock spans classified at ingest', () => {
  it.each(CASES)('$name', (c) => {
    const { attrs: a, core } = classifiedAt(c.span);
    expect(core).toEqual(c.expect);
    expect(a[attributes.ATTR_CLASSIFIED_BY]).toBe('collector');
  });
});

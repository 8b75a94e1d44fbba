import { MYSQL_ERRNO_BY_TEXT } from './driver-texts.js';
import { MQTT_TEXT } from './library-texts.js';
import { SQLSTATE_BY_CONDITION, SQLSTATE_BY_TEXT } from './postgres-conditions.js';
import type { SpanError } from './span-error.js';

/** mysql's and mysql2's symbolic server codes (ER_ACCESS_DENIED_ERROR, ER_DUP_ENTRY); Node's are ERR_. */
const MYSQL_SYMBOLIC = /^ER_[A-Z0-9_]+$/;
/** A SQLSTATE's shape (digits first, or F0/HV/P0/XX); MongoDB's numeric codes have it too (28769). */
const SQLSTATE = /^(?:[0-9][0-9A-Z]|F0|HV|P0|XX)[0-9A-Z]{3}$/;
const KNOWN_SQLSTATES = new Set(Object.values(SQLSTATE_BY_CONDITION));
const NUMERIC = /^\d{1,5}$/;
const MQTT_CLASSES = new Set(['ErrorWithReasonCode', 'ErrorWithSubackPacket']);
/**
 * nats.js ErrorCode values (nats-base-client/core.js) whose NatsError message is the code itself
 * (NatsError.errorForCode: Messages.getMessage(code) || code): "503" no responders, "TIMEOUT"…
 */
const NATS_CODES = new Set([
  'BAD_AUTHENTICATION',
  'BAD_CREDS',
  'BAD_HEADER',
  'BAD_PAYLOAD',
  'BAD_SUBJECT',
  'CANCELLED',
  'CONNECTION_CLOSED',
  'CONNECTION_DRAINING',
  'CONNECTION_REFUSED',
  'CONNECTION_TIMEOUT',
  'DISCONNECT',
  'INVALID_OPTION',
  'MAX_PAYLOAD_EXCEEDED',
  '503',
  'NOT_FUNC',
  'REQUEST_ERROR',
  'SERVER_OPT_NA',
  'SUB_CLOSED',
  'SUB_DRAINING',
  'TIMEOUT',
  'TLS',
  'UNKNOWN_ERROR',
  '404',
  '408',
  '409',
  'IDLE_HEARTBEAT',
]);

/**
 * The system whose client raised a span's error, when the span's attributes name none: a
 * framework's handler or middleware span (express, koa) records the error a driver rejected with,
 * and a library with no instrumentation of its own (mqtt.js, postgres.js, nats.js, a refused login
 * before any query) leaves only that span. OpenTelemetry JS records `exception.type` as the error's
 * `code` when it has one, else its name, so the driver's own words say whose error it is:
 *  - mysql and mysql2 server errors: their symbolic code (`ER_ACCESS_DENIED_ERROR`), with the
 *    server's text ("Access denied for user …", mysql prefixing it with the code);
 *  - PostgreSQL (pg's DatabaseError, postgres.js PostgresError): a SQLSTATE (`23505`) that is a
 *    known one or comes with the server's own text for it, so MongoDB's numeric codes stay out;
 *  - mqtt.js refusals: ErrorWithReasonCode's numeric return or reason code ("5") with its text,
 *    "Connection refused: Not authorized" (handlers/connack.js), which would otherwise read as a
 *    refused socket;
 *  - nats.js: a NatsError whose message is its code ("503" no responders, "TIMEOUT").
 * Undefined when the error names no system.
 */
export function systemOfError(err: SpanError): string | undefined {
  const type = err.type;
  if (type === undefined || GENERIC_TYPES.has(type)) return systemOfText(err.message);
  if (MYSQL_SYMBOLIC.test(type)) return 'mysql';
  if (
    SQLSTATE.test(type) &&
    (KNOWN_SQLSTATES.has(type) || SQLSTATE_BY_TEXT.some(([re]) => re.test(err.message)))
  )
    return 'postgresql';
  if ((NUMERIC.test(type) || MQTT_CLASSES.has(type)) && MQTT_TEXT.test(err.message)) return 'mqtt';
  if (type === err.message && NATS_CODES.has(type)) return 'nats';
  return undefined;
}

/**
 * Names that say nothing of whose error it is: the generic ones, and pg's DatabaseError, whose
 * `name` is "error" (pg-protocol), as an error passed on by hand (a tool's, through the AI SDK's
 * exception event) keeps it.
 */
const GENERIC_TYPES = new Set(['Error', 'error', 'DatabaseError', 'QueryFailedError']);

/**
 * A server's own words when nothing else names the system: PostgreSQL's and MySQL's texts
 * (SQLSTATE_BY_TEXT, MYSQL_ERRNO_BY_TEXT: phrases only those servers print).
 */
function systemOfText(message: string): string | undefined {
  if (SQLSTATE_BY_TEXT.some(([re]) => re.test(message))) return 'postgresql';
  if (MYSQL_ERRNO_BY_TEXT.some(([re]) => re.test(message))) return 'mysql';
  return undefined;
}

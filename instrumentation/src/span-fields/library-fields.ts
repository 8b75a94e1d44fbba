import {
  KAFKA_TYPE_BY_TEXT,
  MONGO_CODE_BY_TEXT,
  MQTT_REASON_BY_TEXT,
  MQTT_TEXT,
  MYSQL_CLIENT_CODE_BY_TEXT,
  NODE_REDIS_NAME_BY_TEXT,
} from './library-texts.js';
import type { SpanError } from './span-error.js';

/**
 * OpenTelemetry JS records `exception.type` as the error's `code` when it has one, else its name
 * (sdk-trace Span.recordException): "SQLITE_BUSY", "CONNECT_TIMEOUT", "AUTHORIZATION_VIOLATION",
 * "404" (amqplib's reply code), "135" (an MQTT reason code). A code-shaped type is that code.
 */
const CODE_SHAPED = /^[A-Z][A-Z0-9_]+$/;
const NUMERIC = /^\d{1,5}$/;

export function typeCode(err: SpanError): string | undefined {
  const type = err.type;
  return type !== undefined && (CODE_SHAPED.test(type) || NUMERIC.test(type)) ? type : undefined;
}

/**
 * The fields a library's error kept that its span's text still states, written onto `out` in the
 * shape that library's classifier reads. Returns whether it found any. `system` is the database's
 * or broker's system name (db.system.name / messaging.system).
 */
export function libraryFields(
  err: SpanError,
  system: string | undefined,
  out: Record<string, unknown>,
): boolean {
  const text = err.message;
  // generic-pool's acquire timeout (any system): its own name and text, which the pool family
  // reads as is; the socket-timeout texts below would otherwise claim "timed out".
  if (err.type === 'TimeoutError' && text === 'ResourceRequest timed out') return true;
  const code = typeCode(err);
  switch (system) {
    case 'redis': {
      if (err.type !== undefined && err.type !== 'Error') return false;
      for (const [re, name] of NODE_REDIS_NAME_BY_TEXT) {
        if (re.test(text)) {
          out.name = name;
          return true;
        }
      }
      return false;
    }
    case 'mysql':
    case 'mariadb': {
      const client = MYSQL_CLIENT_CODE_BY_TEXT[text];
      if (client === undefined) return false;
      out.code = client;
      return true;
    }
    case 'mongodb': {
      for (const [re, n] of MONGO_CODE_BY_TEXT) {
        if (re.test(text)) {
          out.code = n;
          return true;
        }
      }
      return false;
    }
    case 'kafka': {
      const known = KAFKA_TYPE_BY_TEXT[text];
      if (known === undefined) return false;
      out.name = out.name === 'Error' ? 'KafkaJSProtocolError' : out.name;
      out.type = known[0];
      out.retriable = known[1];
      return true;
    }
    case 'rabbitmq':
    case 'mqtt': {
      // amqplib's reply code and mqtt.js's return/reason code are numbers on the error.
      if (code !== undefined && NUMERIC.test(code)) {
        out.code = Number(code);
        return true;
      }
      if (system === 'mqtt') {
        const reason = MQTT_REASON_BY_TEXT[MQTT_TEXT.exec(text)?.[1] ?? ''];
        if (reason === undefined) return false;
        out.code = reason;
        return true;
      }
      return false; // amqplib's handshake refusal states its reply code in the text, read there
    }
    case 'nats': {
      if (code === undefined) return false;
      out.name = 'NatsError';
      // nats.js raises CONNECTION_REFUSED exactly when the socket said ECONNREFUSED (node transport).
      if (code === 'CONNECTION_REFUSED') {
        out.code = 'CONNECTION_REFUSED';
        out.chainedError = { code: 'ECONNREFUSED' };
      } else {
        out.code = code;
      }
      return true;
    }
    default:
      return false;
  }
}

import type { ErrorClass } from '../types.js';
import { read, readNumber, readString } from './safe-read.js';
import type { Verdict } from './verdict.js';

/**
 * KafkaJS: KafkaJSProtocolError carries the broker's error `type` (NOT_LEADER_FOR_PARTITION),
 * numeric `code` and the client's own `retriable` verdict; connection and timeout errors are
 * typed by name. Code rule: the protocol type ("NOT_LEADER_FOR_PARTITION"), else the name.
 * Source: `messaging` (OpenTelemetry's name for brokers), unless the caller says otherwise.
 */

const BY_NAME: Record<string, ErrorClass> = {
  KafkaJSConnectionError: 'transient',
  KafkaJSConnectionClosedError: 'transient',
  KafkaJSRequestTimeoutError: 'transient',
  KafkaJSNumberOfRetriesExceeded: 'transient',
  KafkaJSBrokerNotFound: 'transient',
  KafkaJSLockTimeout: 'transient',
  KafkaJSOffsetOutOfRange: 'permanent',
  KafkaJSSASLAuthenticationError: 'authentication',
  KafkaJSInvalidVarIntError: 'permanent',
  KafkaJSNonRetriableError: 'permanent',
};

function classForType(type: string): ErrorClass | undefined {
  if (type.endsWith('_AUTHORIZATION_FAILED') || type.startsWith('SASL_') || type === 'ILLEGAL_SASL_STATE') {
    return 'authentication';
  }
  if (type === 'THROTTLING_QUOTA_EXCEEDED' || type === 'POLICY_VIOLATION') return 'rate_limit';
  if (
    type.startsWith('INVALID_') ||
    type === 'MESSAGE_TOO_LARGE' ||
    type === 'RECORD_LIST_TOO_LARGE' ||
    type === 'CORRUPT_MESSAGE' ||
    type === 'UNSUPPORTED_VERSION'
  ) {
    return 'validation';
  }
  return undefined;
}

export function classifyKafkaError(err: unknown, name: string): Verdict | null {
  if (!name.startsWith('KafkaJS')) return null;
  const type = readString(err, 'type');
  const retriable = read(err, 'retriable');
  const raw: Record<string, unknown> = { name };
  if (type !== undefined) raw.type = type;
  const num = readNumber(err, 'code');
  if (num !== undefined) raw.code = num;
  if (typeof retriable === 'boolean') raw.retriable = retriable;
  const cls =
    (type !== undefined ? classForType(type) : undefined) ??
    (retriable === true ? 'transient' : undefined) ??
    BY_NAME[name] ??
    'permanent';
  return { class: cls, code: type ?? name, source: 'messaging', raw };
}

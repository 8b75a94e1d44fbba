import type { ErrorClass } from '../types.js';
import { classifyNodeCode } from './classify-node-system-error.js';
import { rootSystemCode } from './root-cause-code.js';
import { read, readNumber, readString } from './safe-read.js';
import type { Verdict } from './verdict.js';

/**
 * KafkaJS: KafkaJSProtocolError carries the broker's error `type` (NOT_LEADER_FOR_PARTITION),
 * numeric `code` and the client's own `retriable` verdict; connection and timeout errors are
 * typed by name. Code rule: the protocol type ("NOT_LEADER_FOR_PARTITION"), else the name.
 * A connection failure (KafkaJSConnectionError, or KafkaJSNumberOfRetriesExceeded whose `cause`
 * is one) takes the socket code beneath it ("ECONNREFUSED"), as every driver's does.
 * Source: `messaging` (OpenTelemetry's name for brokers), unless the caller says otherwise.
 */

/** Names whose failure is the connection's: the socket code beneath says which. */
const CONNECTION_NAMES = new Set([
  'KafkaJSConnectionError',
  'KafkaJSConnectionClosedError',
  'KafkaJSNumberOfRetriesExceeded',
  'KafkaJSBrokerNotFound',
]);

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
  if (type === undefined && CONNECTION_NAMES.has(name)) {
    const socket = rootSystemCode(err);
    const socketClass = socket === undefined ? undefined : classifyNodeCode(socket);
    if (socket !== undefined && socketClass !== undefined) {
      raw.socket = socket;
      return { class: socketClass, code: socket, source: 'messaging', raw };
    }
  }
  const cls =
    (type !== undefined ? classForType(type) : undefined) ??
    (retriable === true ? 'transient' : undefined) ??
    BY_NAME[name] ??
    'permanent';
  return { class: cls, code: type ?? name, source: 'messaging', raw };
}

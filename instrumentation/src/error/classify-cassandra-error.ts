import type { ClassifyContext, ErrorClass } from '../types.js';
import { read, readNumber } from './safe-read.js';
import type { Verdict } from './verdict.js';

/**
 * Apache Cassandra / ScyllaDB through cassandra-driver: ResponseError carries the native
 * protocol error code (0x1001 overloaded…); NoHostAvailableError maps each tried host to its
 * error in `innerErrors`. Code rule: the protocol error's name ("OVERLOADED").
 */

const BY_CODE: Record<number, [string, ErrorClass]> = {
  0: ['SERVER_ERROR', 'transient'],
  10: ['PROTOCOL_ERROR', 'permanent'],
  256: ['BAD_CREDENTIALS', 'authentication'],
  4096: ['UNAVAILABLE', 'transient'],
  4097: ['OVERLOADED', 'transient'],
  4098: ['IS_BOOTSTRAPPING', 'transient'],
  4099: ['TRUNCATE_ERROR', 'transient'],
  4352: ['WRITE_TIMEOUT', 'transient'],
  4608: ['READ_TIMEOUT', 'transient'],
  4864: ['READ_FAILURE', 'transient'],
  5120: ['FUNCTION_FAILURE', 'permanent'],
  5376: ['WRITE_FAILURE', 'transient'],
  5632: ['CDC_WRITE_FAILURE', 'transient'],
  5888: ['CAS_WRITE_UNKNOWN', 'transient'],
  8192: ['SYNTAX_ERROR', 'validation'],
  8448: ['UNAUTHORIZED', 'authentication'],
  8704: ['INVALID', 'validation'],
  8960: ['CONFIG_ERROR', 'permanent'],
  9216: ['ALREADY_EXISTS', 'permanent'],
  9472: ['UNPREPARED', 'transient'], // the driver prepares again
};

const BY_NAME: Record<string, ErrorClass> = {
  NoHostAvailableError: 'transient',
  OperationTimedOutError: 'transient',
  BusyConnectionError: 'transient',
  AuthenticationError: 'authentication',
  ArgumentError: 'validation',
  DriverInternalError: 'permanent',
};

export function classifyCassandraError(
  err: unknown,
  ctx: ClassifyContext | undefined,
  name: string,
): Verdict | null {
  const isCassandra = ctx?.system === 'cassandra' || typeof read(err, 'info') === 'string';
  if (!isCassandra) return null;
  const num = readNumber(err, 'code');
  const known = num === undefined ? undefined : BY_CODE[num];
  if (name === 'ResponseError' && known !== undefined) {
    return { class: known[1], code: known[0], source: 'db', raw: { name, code: num as number } };
  }
  const byName = BY_NAME[name];
  if (byName !== undefined) return { class: byName, code: name, source: 'db', raw: { name } };
  return null;
}

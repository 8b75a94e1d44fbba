import type { ClassifyContext, ErrorClass } from '../types.js';
import { classifyNodeCode } from './classify-node-system-error.js';
import { read, readString } from './safe-read.js';
import type { Verdict } from './verdict.js';

/**
 * NATS through nats.js (v2): every failure is a `NatsError` whose string `code` is the client's
 * ErrorCode ("503" for no responders, "TIMEOUT", "AUTHORIZATION_VIOLATION"); a socket failure
 * keeps Node's error in `chainedError`. Code rule: that code, or the socket code beneath a
 * connection failure ("ECONNREFUSED" under CONNECTION_REFUSED), as for every driver.
 */

const BY_CODE: Record<string, ErrorClass> = {
  // No subscriber on the subject right now: like an HTTP 503, a responder may come back.
  '503': 'transient',
  TIMEOUT: 'transient', // the request's own timer fired
  CONNECTION_REFUSED: 'transient',
  CONNECTION_TIMEOUT: 'transient',
  DISCONNECT: 'transient',
  '408': 'transient', // JetStream request timeout
  '409': 'transient', // JetStream max ack pending exceeded / consumer busy
  IDLE_HEARTBEAT: 'transient',
  AUTHORIZATION_VIOLATION: 'authentication',
  AUTHENTICATION_EXPIRED: 'authentication',
  AUTHENTICATION_TIMEOUT: 'authentication',
  PERMISSIONS_VIOLATION: 'authentication', // publish/subscribe not allowed for this user
  ACCOUNT_EXPIRED: 'authentication',
  BAD_AUTHENTICATION: 'authentication',
  BAD_CREDS: 'authentication',
  BAD_SUBJECT: 'validation',
  BAD_HEADER: 'validation',
  BAD_JSON: 'validation',
  BAD_PAYLOAD: 'validation',
  INVALID_PAYLOAD: 'validation',
  INVALID_OPTION: 'validation',
  MAX_PAYLOAD_EXCEEDED: 'validation',
  '404': 'permanent', // JetStream: no messages / stream not found
  CONNECTION_CLOSED: 'permanent', // the application closed the connection
  CONNECTION_DRAINING: 'permanent',
  SUB_CLOSED: 'permanent',
  SUB_DRAINING: 'permanent',
  CANCELLED: 'permanent',
  NATS_PROTOCOL_ERR: 'permanent',
  TLS: 'permanent',
  WSS_REQUIRED: 'permanent',
};

/** nats.js names its errors; under ctx.system 'nats' a known code is enough (a copied error). */
function isNatsError(err: unknown, code: string, ctx: ClassifyContext | undefined): boolean {
  return readString(err, 'name') === 'NatsError' || (ctx?.system === 'nats' && code in BY_CODE);
}

export function classifyNatsError(err: unknown, ctx: ClassifyContext | undefined): Verdict | null {
  const code = readString(err, 'code');
  if (code === undefined || !isNatsError(err, code, ctx)) return null;
  const raw: Record<string, unknown> = { name: 'NatsError', code };
  const socket = readString(read(err, 'chainedError'), 'code');
  const socketClass = socket === undefined ? undefined : classifyNodeCode(socket);
  if (socket !== undefined && socketClass !== undefined) {
    raw.socket = socket;
    return { class: socketClass, code: socket, source: 'messaging', raw };
  }
  return { class: BY_CODE[code] ?? 'permanent', code, source: 'messaging', raw };
}

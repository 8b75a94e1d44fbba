import type { ErrorClass } from '../types.js';
import { readCode } from './safe-read.js';
import { pick, type Verdict } from './verdict.js';

/**
 * Node.js system, DNS, TLS and stream errors: a string `code` (ECONNREFUSED, ERR_TLS_…,
 * CERT_HAS_EXPIRED). This is the string-code allowlist of the dispatcher's precedence; drivers
 * (pg, mysql2, ioredis, tedious's cause) pass these through, so ctx.source usually says whose.
 * Code rule: the code itself ("ECONNREFUSED").
 */

const BY_CODE: Record<string, ErrorClass> = {
  // The network or the peer: a later attempt, maybe on another connection, can succeed.
  ECONNREFUSED: 'transient',
  ECONNRESET: 'transient',
  ECONNABORTED: 'transient',
  ETIMEDOUT: 'transient',
  ESOCKETTIMEDOUT: 'transient',
  EPIPE: 'transient',
  EHOSTUNREACH: 'transient',
  EHOSTDOWN: 'transient',
  ENETUNREACH: 'transient',
  ENETDOWN: 'transient',
  ENETRESET: 'transient',
  EADDRNOTAVAIL: 'transient',
  // DNS: ENOTFOUND is also a typo'd host, but resolvers fail transiently often enough that the
  // AWS SDK and most HTTP clients retry it; a bounded backoff costs little when it is a typo.
  ENOTFOUND: 'transient',
  EAI_AGAIN: 'transient',
  EAI_NONAME: 'transient',
  ESERVFAIL: 'transient',
  ETIMEOUT: 'transient', // dns module: query timed out
  // Local resource exhaustion: clears when other work finishes.
  EMFILE: 'transient',
  ENFILE: 'transient',
  ENOBUFS: 'transient',
  ENOMEM: 'transient',
  EAGAIN: 'transient',
  EBUSY: 'transient',
  // Node's own timeouts and premature closes.
  ERR_SOCKET_CONNECTION_TIMEOUT: 'transient',
  ERR_TLS_HANDSHAKE_TIMEOUT: 'transient',
  ERR_STREAM_PREMATURE_CLOSE: 'transient',
  ERR_HTTP2_STREAM_ERROR: 'transient',
  ERR_HTTP2_SESSION_ERROR: 'transient',
  ERR_HTTP2_GOAWAY_SESSION: 'transient',
  ERR_HTTP2_STREAM_CANCEL: 'transient',
  ERR_HTTP2_PING_CANCEL: 'transient',
  ERR_SOCKET_CLOSED: 'transient',
  ERR_SOCKET_CLOSED_BEFORE_CONNECTION: 'transient',
  // TLS and certificates: the peer's identity cannot be verified; retrying changes nothing,
  // a person has to fix the certificate or the trust store.
  ERR_TLS_CERT_ALTNAME_INVALID: 'permanent',
  ERR_TLS_INVALID_PROTOCOL_VERSION: 'permanent',
  ERR_TLS_PROTOCOL_VERSION_CONFLICT: 'permanent',
  ERR_SSL_WRONG_VERSION_NUMBER: 'permanent',
  CERT_HAS_EXPIRED: 'permanent',
  CERT_NOT_YET_VALID: 'permanent',
  CERT_REVOKED: 'permanent',
  CERT_UNTRUSTED: 'permanent',
  CERT_SIGNATURE_FAILURE: 'permanent',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'permanent',
  SELF_SIGNED_CERT_IN_CHAIN: 'permanent',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'permanent',
  UNABLE_TO_GET_ISSUER_CERT: 'permanent',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'permanent',
  HOSTNAME_MISMATCH: 'permanent',
  EPROTO: 'permanent',
  // Local configuration and caller mistakes.
  EADDRINUSE: 'permanent',
  EACCES: 'permanent',
  EPERM: 'permanent',
  ENOENT: 'permanent',
  ECANCELLED: 'permanent',
  ABORT_ERR: 'permanent', // the caller aborted
  ERR_INVALID_URL: 'validation',
  ERR_INVALID_ARG_TYPE: 'validation',
  ERR_INVALID_ARG_VALUE: 'validation',
  ERR_INVALID_HTTP_TOKEN: 'validation',
  ERR_INVALID_CHAR: 'validation',
  ERR_UNESCAPED_CHARACTERS: 'validation',
  ERR_INVALID_PROTOCOL: 'validation',
  ERR_HTTP_INVALID_HEADER_VALUE: 'validation',
  ERR_HTTP_HEADERS_SENT: 'permanent',
};

const RAW_KEYS = ['name', 'code', 'errno', 'syscall', 'address', 'port', 'hostname'];

/** The class of a Node/OS error code, or undefined when the code is not on the allowlist. */
export function classifyNodeCode(code: string): ErrorClass | undefined {
  const cls = BY_CODE[code];
  if (cls !== undefined) return cls;
  // Any other TLS-layer failure is about certificates or protocol, not load.
  if (code.startsWith('ERR_TLS_') || code.startsWith('ERR_SSL_')) return 'permanent';
  return undefined;
}

export function classifyNodeSystemError(err: unknown): Verdict | null {
  const code = readCode(err);
  if (code === undefined) return null;
  const cls = classifyNodeCode(code);
  if (cls === undefined) return null;
  return { class: cls, code, source: 'network', raw: pick(err, RAW_KEYS) };
}

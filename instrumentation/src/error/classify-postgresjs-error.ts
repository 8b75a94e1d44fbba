import type { ClassifyContext, ErrorClass } from '../types.js';
import { readString } from './safe-read.js';
import type { Verdict } from './verdict.js';

/**
 * postgres.js (porsager/postgres) client-side failures. Server errors are `PostgresError`s with the
 * SQLSTATE in `code` and go to the PostgreSQL family; the client's own are plain Errors with a
 * symbolic `code`, built by src/errors.js in two shapes: `connection()` — message
 * "write CONNECT_TIMEOUT host:port", `errno` equal to the code — and `generic()` — message
 * "QUERY_TIMEOUT: The query did not finish …". Code rule: that symbolic code.
 */

const BY_CODE: Record<string, ErrorClass> = {
  CONNECT_TIMEOUT: 'transient', // connect_timeout elapsed before the server answered
  CONNECTION_CLOSED: 'transient', // the server or the network closed the socket
  QUERY_TIMEOUT: 'transient', // query_timeout elapsed
  CANCEL_UNANSWERED: 'transient', // the cancel went unanswered: the connection was dropped
  CONNECTION_ENDED: 'permanent', // the application called sql.end(): nothing to retry on
  CONNECTION_DESTROYED: 'permanent', // sql.end({ timeout }) destroyed it
  // Authentication handshake: the credentials or the method, never the load.
  SASL_SIGNATURE_MISMATCH: 'authentication',
  SASL_NONCE_MISMATCH: 'authentication',
  SASL_MECHANISM_NOT_SUPPORTED: 'authentication',
  AUTH_TYPE_NOT_IMPLEMENTED: 'authentication',
  AUTH_METHOD_REFUSED: 'authentication',
  CHANNEL_BINDING_REQUIRED: 'authentication',
  AUTHENTICATION_INCOMPLETE: 'authentication',
  // The call as written cannot be sent.
  UNDEFINED_VALUE: 'validation',
  MAX_PARAMETERS_EXCEEDED: 'validation',
  NOT_TAGGED_CALL: 'validation',
  NO_COLUMNS: 'validation',
  NO_PARTS: 'validation',
  BATCH_NOT_ARRAY: 'validation',
  BATCH_NOT_QUERY: 'validation',
  UNSAFE_TRANSACTION: 'permanent',
  TRANSACTION_ROLLED_BACK: 'permanent',
  SSL_NOT_SUPPORTED: 'permanent',
  TLS_HANDSHAKE_FAILED: 'permanent',
  MESSAGE_NOT_SUPPORTED: 'permanent',
};

export function classifyPostgresjsError(err: unknown, ctx: ClassifyContext | undefined): Verdict | null {
  const code = readString(err, 'code');
  if (code === undefined || !(code in BY_CODE)) return null;
  const message = readString(err, 'message') ?? '';
  // The two message shapes are postgres.js's own; ctx.system vouches for a copied error.
  const ours =
    message.startsWith(`${code}: `) ||
    (message.startsWith(`write ${code} `) && readString(err, 'errno') === code) ||
    ctx?.system === 'postgresql';
  if (!ours) return null;
  return { class: BY_CODE[code] as ErrorClass, code, source: 'db', raw: { name: 'Error', code } };
}

import type { Attributes } from '@opentelemetry/api';
import type { Envelope } from '../../types.js';
import { isConnectName } from './call-role.js';

/**
 * Envelope codes of calls the caller itself stopped (an AbortSignal, a gRPC `call.cancel()`, a
 * cancelled SQL Server request): not retryable, yet calling again is the caller's new decision,
 * not a retry the envelope advised against.
 */
const CALLER_STOPPED = new Set(['ABORT_ERR', 'CANCELLED', 'ECANCEL', 'ECANCELLED']);

/**
 * Whether an identical repeat after this failure is a misrouted retry: the envelope already said
 * the call cannot work as sent (not retryable), and the caller did not stop it itself.
 */
export function misroutes(envelope: Envelope): boolean {
  return !envelope.retryable && !CALLER_STOPPED.has(envelope.code);
}

/**
 * What makes two calls "identical": method and URL for HTTP, system, database and statement for
 * databases (a connect or pool checkout, which has no statement, by its span name), service and
 * method for RPC. Request bodies are not compared: reading them would cost every call. Read at
 * span start (enforce mode) and again at its end, once every instrumentation has set its attributes.
 */
export function operationKey(attrs: Attributes, spanName?: string): string | undefined {
  const url = attrs['url.full'] ?? attrs['http.url'];
  if (url !== undefined)
    return `http ${attrs['http.request.method'] ?? attrs['http.method'] ?? 'GET'} ${url}`;
  const system = attrs['db.system.name'] ?? attrs['db.system'];
  if (system !== undefined) {
    const statement =
      attrs['db.query.text'] ??
      attrs['db.statement'] ??
      (spanName !== undefined && isConnectName(spanName) ? spanName : undefined);
    if (statement !== undefined)
      return `db ${system} ${attrs['db.namespace'] ?? attrs['db.name'] ?? ''} ${statement}`;
  }
  if (attrs['rpc.system'] !== undefined) {
    return `rpc ${attrs['rpc.system']} ${attrs['rpc.service'] ?? ''} ${attrs['rpc.method'] ?? ''}`;
  }
  return undefined;
}

/** Thrown into the caller, in enforce mode, instead of repeating a call that cannot succeed. */
export class MisroutedRetryError extends Error {
  readonly code = 'FAULTLINE_MISROUTED_RETRY';
  constructor(readonly envelope: Envelope) {
    super(
      `faultline: refused an identical repeat of a call that failed with ${envelope.class} (${envelope.code}), ` +
        'which is not retryable; change the request or escalate (FAULTLINE_ENFORCE_MISROUTED=off disables this)',
    );
    this.name = 'MisroutedRetryError';
  }
}

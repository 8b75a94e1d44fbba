import type { Attributes } from '@opentelemetry/api';
import type { Envelope } from '../types.js';

/** How long a non-retryable failure is remembered; a repeat later than this is a new decision. */
const TTL_MS = 10 * 60_000;
/** Bounded so a long-running service with many distinct calls cannot grow memory without limit. */
const MAX_ENTRIES = 2000;

/**
 * Remembers non-retryable failures per (correlation id, operation, target). A repeat of the
 * identical call in the same request is a misrouted retry: the envelope already said it cannot work.
 */
export class MisroutedRetryTracker {
  private readonly failures = new Map<string, { envelope: Envelope; at: number }>();

  record(correlationId: string, operation: string, envelope: Envelope): void {
    if (envelope.retryable) return;
    const key = `${correlationId}\u0000${operation}`;
    this.failures.delete(key);
    this.failures.set(key, { envelope, at: Date.now() });
    if (this.failures.size > MAX_ENTRIES) {
      const oldest = this.failures.keys().next().value;
      if (oldest !== undefined) this.failures.delete(oldest);
    }
  }

  /**
   * The call ended some other way (success, a retryable or unclassified failure): a repeat after
   * that is an ordinary retry, so the earlier non-retryable failure no longer speaks for it.
   */
  forget(correlationId: string, operation: string): void {
    this.failures.delete(`${correlationId}\u0000${operation}`);
  }

  /** Remembered failures; 0 lets callers skip building an operation key on every span. */
  get size(): number {
    return this.failures.size;
  }

  /** The earlier envelope when this call repeats a non-retryable failure, else undefined. */
  lookup(correlationId: string, operation: string): Envelope | undefined {
    const key = `${correlationId}\u0000${operation}`;
    const hit = this.failures.get(key);
    if (!hit) return undefined;
    if (Date.now() - hit.at > TTL_MS) {
      this.failures.delete(key);
      return undefined;
    }
    return hit.envelope;
  }
}

/**
 * What makes two calls "identical", from the attributes the instrumentations set at span start:
 * method and URL for HTTP, system, database and statement for databases, service and method for RPC.
 * Request bodies are not compared: reading them would cost every call.
 */
export function operationKey(attrs: Attributes): string | undefined {
  const url = attrs['url.full'] ?? attrs['http.url'];
  if (url !== undefined)
    return `http ${attrs['http.request.method'] ?? attrs['http.method'] ?? 'GET'} ${url}`;
  const system = attrs['db.system.name'] ?? attrs['db.system'];
  const statement = attrs['db.query.text'] ?? attrs['db.statement'];
  if (system !== undefined && statement !== undefined) {
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

import { diag } from '@opentelemetry/api';

/** The exporter's retry policy (otlp-exporter-base RetryingTransport), kept as is. */
const MAX_RETRIES = 5;
const INITIAL_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 5000;
const BACKOFF_MULTIPLIER = 1.5;
const JITTER = 0.2;

interface ExportResponse {
  status: 'success' | 'failure' | 'retryable';
  retryInMillis?: number;
}

interface Transport {
  send(data: Uint8Array, timeoutMillis: number): Promise<ExportResponse>;
  shutdown(): void;
}

/**
 * The OTLP exporter retries a failed export on plain `setTimeout`s, which keep a finished process
 * alive until the retries give up (up to the 10 s export timeout) when the collector is down.
 * This swaps the exporter's retrying transport for one with the same policy whose waits are
 * unref'd, around the exporter's own HTTP transport: the real exporter still does the sending.
 * Returns false (and leaves the exporter as is) if its internals ever change shape. Any OTLP/HTTP
 * exporter of the line (spans, and the call counts' metrics) has the same shape.
 */
export function unrefExportRetries(exporter: object): boolean {
  // OTLPExporterBase → OTLPExportDelegate → RetryingTransport → HttpExporterTransport (0.223).
  const delegate = (exporter as unknown as { _delegate?: { _transport?: unknown } })._delegate;
  const retrying = delegate?._transport as { _transport?: unknown } | undefined;
  const inner = retrying?._transport;
  if (!delegate || !isTransport(retrying) || !isTransport(inner)) {
    diag.warn('faultline: unexpected OTLP exporter internals; export retries keep their own timers');
    return false;
  }
  delegate._transport = new UnrefRetryingTransport(inner);
  return true;
}

function isTransport(value: unknown): value is Transport {
  return typeof (value as Transport | undefined)?.send === 'function';
}

class UnrefRetryingTransport implements Transport {
  constructor(private readonly transport: Transport) {}

  async send(data: Uint8Array, timeoutMillis: number): Promise<ExportResponse> {
    const deadline = Date.now() + timeoutMillis;
    let backoff = INITIAL_BACKOFF_MS;
    let result = await this.transport.send(data, timeoutMillis);
    for (let retries = 0; result.status === 'retryable' && retries < MAX_RETRIES; retries++) {
      const jittered = Math.max(
        Math.min(backoff * (1 + (Math.random() * 2 - 1) * JITTER), MAX_BACKOFF_MS),
        0,
      );
      backoff *= BACKOFF_MULTIPLIER;
      const wait = result.retryInMillis ?? jittered;
      const remaining = deadline - Date.now();
      if (wait > remaining) return result;
      await new Promise<void>((resolve) => setTimeout(resolve, wait).unref());
      result = await this.transport.send(data, deadline - Date.now());
    }
    return result;
  }

  shutdown(): void {
    this.transport.shutdown();
  }
}

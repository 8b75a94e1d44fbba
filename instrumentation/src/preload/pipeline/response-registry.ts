import type { Span } from '@opentelemetry/api';

/**
 * What a client span learned about its response (or a server span about the failing answer it
 * sent with a Retry-After); classified once, when the span ends.
 */
export interface ResponseRecord {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Returns the peeked JSON body, when one was peeked. */
  body?: () => unknown;
}

/**
 * Responses are classified in `onEnding` rather than in the response hook because the body (for
 * silent failures) is only complete when the span ends.
 */
export class ResponseRegistry {
  private readonly records = new WeakMap<Span, ResponseRecord>();

  set(span: Span, record: ResponseRecord): void {
    this.records.set(span, record);
  }

  has(span: Span): boolean {
    return this.records.has(span);
  }

  take(span: Span): ResponseRecord | undefined {
    const record = this.records.get(span);
    if (record) this.records.delete(span);
    return record;
  }
}

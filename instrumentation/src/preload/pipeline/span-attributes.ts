import type { Attributes, Span } from '@opentelemetry/api';

/** The SDK span exposes its attributes; the API type does not, so read them defensively. */
export function attributesOf(span: Span): Attributes {
  return (span as unknown as { attributes?: Attributes }).attributes ?? {};
}

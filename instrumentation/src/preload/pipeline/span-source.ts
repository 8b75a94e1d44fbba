import type { Attributes } from '@opentelemetry/api';

/** The envelope `source` for a client span, known at start so successes count in denominators. */
export function sourceOf(attrs: Attributes): string | undefined {
  const rpc = attrs['rpc.system'];
  // Before the db check: DynamoDB spans carry db.system.name too, yet their failures are the
  // AWS SDK's ('sdk'), and successes must count under the same source as failures.
  if (rpc === 'aws-api') return 'sdk';
  if (attrs['db.system.name'] !== undefined || attrs['db.system'] !== undefined) return 'db';
  if (rpc !== undefined) return 'rpc';
  if (attrs['http.request.method'] !== undefined || attrs['http.method'] !== undefined) return 'http';
  return undefined;
}

export function httpStatusOf(attrs: Attributes): number | undefined {
  const raw = attrs['http.response.status_code'] ?? attrs['http.status_code'];
  const n = typeof raw === 'string' ? Number(raw) : raw;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

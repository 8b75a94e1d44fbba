import type { Attributes } from '@opentelemetry/api';

export function httpStatusOf(attrs: Attributes): number | undefined {
  const raw = attrs['http.response.status_code'] ?? attrs['http.status_code'];
  const n = typeof raw === 'string' ? Number(raw) : raw;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

import type { SearchParams } from './dashboard-params';

/** Filters that follow the user from page to page. */
export const SHARED_KEYS = ['range', 'from', 'to', 'service', 'source', 'slo'] as const;

export function toUrlSearchParams(sp: SearchParams): URLSearchParams {
  const out = new URLSearchParams();
  for (const [key, value] of Object.entries(sp)) {
    if (typeof value === 'string') out.set(key, value);
    else if (Array.isArray(value) && value[0] !== undefined) out.set(key, value[0]);
  }
  return out;
}

/** `path?…` with the shared filters of `current` kept and `changes` applied ('' or null removes a key). */
export function hrefWith(
  path: string,
  current: SearchParams | URLSearchParams,
  changes: Record<string, string | number | null> = {},
): string {
  const source = current instanceof URLSearchParams ? current : toUrlSearchParams(current);
  const next = new URLSearchParams();
  for (const key of SHARED_KEYS) {
    const value = source.get(key);
    if (value) next.set(key, value);
  }
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === '') next.delete(key);
    else next.set(key, String(value));
  }
  const query = next.toString();
  return query ? `${path}?${query}` : path;
}

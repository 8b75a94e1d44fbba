import type { DashboardParams, SearchParams } from './dashboard-params';
import { NARROWING_KEYS, narrowingLinkParams } from './narrowing';

/** Filters that follow the user from page to page. */
export const SHARED_KEYS = [
  'range',
  'from',
  'to',
  'service',
  'source',
  'class',
  'dependency',
  'slo',
  'period',
  'sli',
  'caller_faults',
  ...NARROWING_KEYS,
] as const;

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

/** `path?…` for parsed params: what the page shows now, with `changes` applied. */
export function dashboardHref(
  path: string,
  p: DashboardParams,
  changes: Record<string, string | number | null> = {},
): string {
  const current = new URLSearchParams();
  if (p.range.preset) current.set('range', p.range.preset);
  else {
    current.set('from', String(p.range.fromS));
    current.set('to', String(p.range.toS));
  }
  if (p.service) current.set('service', p.service);
  if (p.source) current.set('source', p.source);
  if (p.class) current.set('class', p.class);
  if (p.dependency) current.set('dependency', p.dependency);
  current.set('slo', String(p.slo));
  current.set('period', String(p.periodDays));
  current.set('sli', p.sli);
  current.set('caller_faults', p.callerFaults);
  for (const [key, value] of Object.entries(narrowingLinkParams(p.narrow)))
    if (value) current.set(key, value);
  return hrefWith(path, current, changes);
}

import { requestHref } from './request-href';

// The columns of Faultline's tables and named queries that name something a view is about.
const CORRELATION = /^(example_)?correlation_?id$/i;
const TRACE = /^(example_)?trace_?id$/i;
const SPAN = /^span_?id$/i;
const SERVICE = /^(service_?name|service|entry_service)$/i;
const DEPENDENCY = /^dependency$/i;

const text = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/**
 * Where a SQL console cell links: a correlation or trace id to its request, a span id (beside a
 * trace id in the row) to that span in its request, a service to the Overview filtered to it, a
 * dependency to its edges on the Dependencies page. null for every other column, and for empty
 * values. The values are span data, so they travel only as encoded query parameters.
 */
export function resultCellHref(column: string, value: unknown, row: Record<string, unknown>): string | null {
  const v = text(value);
  if (v === '') return null;
  if (CORRELATION.test(column) || TRACE.test(column)) return requestHref(v);
  if (SPAN.test(column)) {
    const traceColumn = Object.keys(row).find((k) => TRACE.test(k));
    const trace = traceColumn ? text(row[traceColumn]) : '';
    return trace ? requestHref(trace, v) : null;
  }
  if (SERVICE.test(column)) return `/?${new URLSearchParams({ service: v })}`;
  if (DEPENDENCY.test(column)) {
    const serviceColumn = Object.keys(row).find((k) => SERVICE.test(k));
    const q = new URLSearchParams({ dependency: v });
    if (serviceColumn && text(row[serviceColumn])) q.set('service', text(row[serviceColumn]));
    return `/dependencies?${q}`;
  }
  return null;
}

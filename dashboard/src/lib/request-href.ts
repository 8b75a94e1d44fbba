/**
 * Links within the request page. Ids are span data (any text), so they travel only as encoded
 * query parameters, never as a path or an element id.
 */
export function requestHref(id: string, spanId?: string): string {
  const q = new URLSearchParams({ id });
  if (spanId !== undefined) q.set('span', spanId);
  return `/request?${q.toString()}`;
}

/** The SQL console with the span_detail query for one span: its texts and maps uncut. */
export function spanDetailHref(traceId: string, spanId: string): string {
  const q = new URLSearchParams({ query: 'span_detail', 'p.trace_id': traceId, 'p.span_id': spanId });
  return `/sql?${q.toString()}`;
}

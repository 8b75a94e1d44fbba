import { attributes } from '@faultline/instrumentation';
import type { TraceRow } from '@faultline/sql';
import { classifyRow } from '../../src/classify/classify-row.js';

export const TRACE_ID = '5b8efff798038103d269b633813fc60c';

/** A stored row as decode builds it, with the fields a case sets; defaults are a plain client span. */
export function spanRow(init: {
  kind?: string;
  status?: 'Unset' | 'Ok' | 'Error';
  statusMessage?: string;
  attrs?: Record<string, string>;
  exception?: Record<string, string>;
}): TraceRow {
  return {
    Timestamp: '1732886400.000000000',
    TraceId: TRACE_ID,
    SpanId: 'eee19b7ec3c1b174',
    ParentSpanId: '',
    TraceState: '',
    SpanName: 'span',
    SpanKind: init.kind ?? 'Client',
    ServiceName: 'svc',
    ResourceAttributes: {},
    ScopeName: '',
    ScopeVersion: '',
    SpanAttributes: { ...init.attrs },
    Duration: 1000,
    StatusCode: init.status ?? 'Unset',
    StatusMessage: init.statusMessage ?? '',
    'Events.Timestamp': init.exception ? ['1732886400.000000001'] : [],
    'Events.Name': init.exception ? ['exception'] : [],
    'Events.Attributes': init.exception ? [init.exception] : [],
    'Links.TraceId': [],
    'Links.SpanId': [],
    'Links.TraceState': [],
    'Links.Attributes': [],
  };
}

/** Classifies a stock span's row at ingest as the collector does; its attributes and the envelope's core. */
export function classifiedAt(init: Parameters<typeof spanRow>[0]) {
  const row = spanRow(init);
  classifyRow(row);
  const a = row.SpanAttributes;
  return {
    attrs: a,
    core: {
      class: a[attributes.ATTR_CLASS],
      source: a[attributes.ATTR_SOURCE],
      code: a[attributes.ATTR_CODE],
      retryable: a[attributes.ATTR_RETRYABLE] === 'true',
    },
  };
}

import { type ShownValue, shownAttribute, shownText } from '../lib/shown-value';
import { SHOWN_TEXT_CHARS } from './request-data';
import { idStr, num, panelQuery } from './run-panel-query';

export interface SpanPanelEvent {
  /** Exact, as stored (nanoseconds since the epoch, as text: more digits than a double holds). */
  timeNs: string;
  /** Since the span started. */
  offsetNs: number;
  name: string;
  attributes: ShownValue[];
  attributeCount: number;
}

/** The heavy columns of the selected span, redacted and bounded for display. */
export interface SpanPanelData {
  startNs: string;
  attributes: ShownValue[];
  attributeCount: number;
  resource: ShownValue[];
  resourceCount: number;
  events: SpanPanelEvent[];
  eventCount: number;
  statusMessage: { text: string; cut: boolean; length: number };
  scope: string;
}

type Triple = [unknown, unknown, unknown];

function values(list: unknown): ShownValue[] {
  if (!Array.isArray(list)) return [];
  return (list as Triple[]).map(([k, v, len]) =>
    shownAttribute(idStr(k), idStr(v), num(len), SHOWN_TEXT_CHARS),
  );
}

function nsDiff(a: string, b: string): number {
  try {
    return Number(BigInt(a) - BigInt(b));
  } catch {
    return 0;
  }
}

/**
 * One span's attributes, events and resource, read by request_span_panel only when that span is
 * selected: a 500-span tree carrying every span's maps would cost what no reader of the tree
 * needs, while one span's maps are one small read (bounded in the query). `startNs` is the
 * span's start as the page has it (a double: whole seconds around it bound the read).
 */
export async function loadSpanPanel(
  traceId: string,
  spanId: string,
  startNs: number,
): Promise<SpanPanelData | null> {
  const startS = Math.floor(startNs / 1e9);
  const [row] = await panelQuery('request_span_panel', {
    trace_id: traceId,
    span_id: spanId,
    from: startS - 1,
    to: startS + 2,
  });
  if (!row) return null;
  const start = idStr(row.start_ns);
  const events = Array.isArray(row.events) ? (row.events as [unknown, unknown, unknown, unknown][]) : [];
  const status = shownText(idStr(row.status_message), num(row.status_message_length), SHOWN_TEXT_CHARS);
  return {
    startNs: start,
    attributes: values(row.attributes),
    attributeCount: num(row.attribute_count),
    resource: values(row.resource),
    resourceCount: num(row.resource_count),
    events: events.map(([t, name, attrs, count]) => ({
      timeNs: idStr(t),
      offsetNs: nsDiff(idStr(t), start),
      name: shownText(idStr(name), idStr(name).length, 500).text,
      attributes: values(attrs),
      attributeCount: num(count),
    })),
    eventCount: num(row.event_count),
    statusMessage: { ...status, length: num(row.status_message_length) },
    scope: shownText(idStr(row.scope), idStr(row.scope).length, 500).text,
  };
}

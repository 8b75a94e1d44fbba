import { anyValue, attributesOf, ExportLogsRequest, type WireKeyValue, type WireValue } from './otlp-wire.js';

/** One exported log record, flattened from either OTLP encoding so tests assert on plain values. */
export interface ReceivedLogRecord {
  service: string;
  resource: Record<string, unknown>;
  scope: string;
  severityNumber: number;
  severityText: string;
  body: unknown;
  attributes: Record<string, unknown>;
  /** Hex ids, '' when the record was logged outside a span. */
  traceId: string;
  spanId: string;
}

interface WireRecord {
  severityNumber?: number;
  severityText?: string;
  body?: WireValue;
  attributes?: WireKeyValue[];
  traceId?: string;
  spanId?: string;
}
interface WireRequest {
  resourceLogs?: {
    resource?: { attributes?: WireKeyValue[] };
    scopeLogs?: { scope?: { name?: string }; logRecords?: WireRecord[] }[];
  }[];
}

/** The records of one logs export request, protobuf or JSON by its content type. */
export function decodeLogsRequest(body: Buffer, contentType: string): ReceivedLogRecord[] {
  const json = contentType.includes('json');
  const request = json
    ? (JSON.parse(body.toString('utf8')) as WireRequest)
    : (ExportLogsRequest.toObject(ExportLogsRequest.decode(body), { longs: String }) as WireRequest);
  // protobufjs renders bytes as base64; OTLP JSON already spells ids in hex.
  const hex = (id: string | undefined) =>
    json ? (id ?? '') : Buffer.from(id ?? '', 'base64').toString('hex');
  const records: ReceivedLogRecord[] = [];
  for (const rl of request.resourceLogs ?? []) {
    const resource = attributesOf(rl.resource?.attributes);
    for (const sl of rl.scopeLogs ?? []) {
      for (const r of sl.logRecords ?? []) {
        records.push({
          service: String(resource['service.name'] ?? ''),
          resource,
          scope: sl.scope?.name ?? '',
          severityNumber: r.severityNumber ?? 0,
          severityText: r.severityText ?? '',
          body: anyValue(r.body),
          attributes: attributesOf(r.attributes),
          traceId: hex(r.traceId),
          spanId: hex(r.spanId),
        });
      }
    }
  }
  return records;
}

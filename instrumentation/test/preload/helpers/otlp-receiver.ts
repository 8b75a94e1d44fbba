import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { addDerivedAttributes } from '../../../src/derive/derived-attributes.js';
import { DISTRO_NAME, DISTRO_NAME_KEY } from '../../../src/envelope/attribute-names.js';
import { decodeLogsRequest, type ReceivedLogRecord } from './otlp-logs.js';
import { decodeMetricsRequest, type ReceivedPoint } from './otlp-metrics.js';
import { attributesOf, ExportTraceRequest, type WireKeyValue } from './otlp-wire.js';

/** One exported span, flattened from either OTLP encoding so tests assert on plain values. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  /** The span's W3C tracestate as exported ('' when none), e.g. `ot=th:c` from a ratio sampler. */
  traceState: string;
  name: string;
  /** OTLP enum: 1 internal, 2 server, 3 client. */
  kind: number;
  /** OTLP enum: 0 unset, 1 ok, 2 error. */
  statusCode: number;
  /** The status description as it travelled ('' when none). */
  statusMessage: string;
  /**
   * The span's attributes as the Faultline collector stores them: what was exported plus what the
   * collector derives for a preload span (derived-attributes.ts), so tests assert on the stored
   * answer. `wireAttributes` is what actually travelled.
   */
  attributes: Record<string, unknown>;
  wireAttributes: Record<string, unknown>;
  /** Attributes of the resource the span was exported under (service.name, OTEL_RESOURCE_ATTRIBUTES, …). */
  resource: Record<string, unknown>;
  /** Name of the instrumentation scope that made the span, e.g. `@opentelemetry/instrumentation-http`. */
  scope: string;
}

/** One export request as the collector would see it: where it was sent, with which headers. */
export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  /** The encoded payload, to prove what was (not) sent whatever the encoding. */
  body: Buffer;
  spans: ReceivedSpan[];
}

interface WireSpan {
  traceId?: string;
  spanId?: string;
  traceState?: string;
  parentSpanId?: string;
  name?: string;
  kind?: number;
  attributes?: WireKeyValue[];
  status?: { code?: number; message?: string };
}
interface WireRequest {
  resourceSpans?: {
    resource?: { attributes?: WireKeyValue[] };
    scopeSpans?: { scope?: { name?: string }; spans?: WireSpan[] }[];
  }[];
}

function flatten(request: WireRequest): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of request.resourceSpans ?? []) {
    const resource = attributesOf(rs.resource?.attributes);
    for (const ss of rs.scopeSpans ?? []) {
      for (const span of ss.spans ?? []) {
        const wireAttributes = attributesOf(span.attributes);
        const attributes = { ...wireAttributes };
        if (resource[DISTRO_NAME_KEY] === DISTRO_NAME) {
          const kind = span.kind === 3 ? 'client' : span.kind === 2 ? 'server' : 'other';
          const facts = { traceId: span.traceId ?? '', parentSpanId: span.parentSpanId ?? '', kind } as const;
          addDerivedAttributes(attributes, facts, 'exported');
        }
        out.push({
          service: String(resource['service.name'] ?? ''),
          traceId: span.traceId ?? '',
          spanId: span.spanId ?? '',
          parentSpanId: span.parentSpanId ?? '',
          traceState: span.traceState ?? '',
          name: span.name ?? '',
          kind: span.kind ?? 0,
          statusCode: span.status?.code ?? 0,
          statusMessage: span.status?.message ?? '',
          attributes,
          wireAttributes,
          resource,
          scope: ss.scope?.name ?? '',
        });
      }
    }
  }
  return out;
}

/** An export of the preload's call counts (`…/v1/metrics`), kept apart from the trace exports. */
export interface ReceivedMetricsRequest {
  path: string;
  headers: IncomingHttpHeaders;
  points: ReceivedPoint[];
}

/** An export of the preload's logged errors (`…/v1/logs`), kept apart from the trace exports. */
export interface ReceivedLogsRequest {
  path: string;
  headers: IncomingHttpHeaders;
  contentType: string;
  records: ReceivedLogRecord[];
}

/**
 * An in-process OTLP/HTTP receiver on 127.0.0.1:0 that accepts protobuf and JSON: traces, the
 * preload's call counts on any path ending in /v1/metrics and its logged errors on /v1/logs (in
 * `metrics` and `logs` only, so `requests`, `contentTypes` and `spans` stay the traces').
 */
export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  metrics: ReceivedMetricsRequest[];
  logs: ReceivedLogsRequest[];
  /** Content types of the export requests received, to prove which encoding was used. */
  contentTypes: string[];
  /** Every export request in arrival order, undecodable ones included (with no spans). */
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const requests: ReceivedRequest[] = [];
  const metrics: ReceivedMetricsRequest[] = [];
  const logs: ReceivedLogsRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const type = String(req.headers['content-type'] ?? '');
      const path = (req.url ?? '').split('?')[0] ?? '';
      if (path.endsWith('/v1/logs')) {
        try {
          const records = decodeLogsRequest(body, type);
          logs.push({ path: req.url ?? '', headers: req.headers, contentType: type, records });
          res.writeHead(200, { 'content-type': type || 'application/x-protobuf' }).end();
        } catch (err) {
          res.writeHead(400).end(String(err));
        }
        return;
      }
      if (path.endsWith('/v1/metrics')) {
        try {
          metrics.push({
            path: req.url ?? '',
            headers: req.headers,
            points: decodeMetricsRequest(body, type),
          });
          res.writeHead(200, { 'content-type': type || 'application/x-protobuf' }).end();
        } catch (err) {
          res.writeHead(400).end(String(err));
        }
        return;
      }
      contentTypes.push(type);
      const request: ReceivedRequest = { path: req.url ?? '', headers: req.headers, body, spans: [] };
      requests.push(request);
      try {
        if (type.includes('json')) {
          request.spans = flatten(JSON.parse(body.toString('utf8')) as WireRequest);
        } else {
          const decoded = ExportTraceRequest.toObject(ExportTraceRequest.decode(body), {
            bytes: String,
            longs: Number,
          }) as WireRequest;
          request.spans = flatten(hexIds(decoded));
        }
        spans.push(...request.spans);
        res.writeHead(200, { 'content-type': type || 'application/x-protobuf' }).end();
      } catch (err) {
        res.writeHead(400).end(String(err));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    metrics,
    logs,
    contentTypes,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** protobufjs renders bytes as base64; OTLP JSON and ClickHouse use hex ids. */
function hexIds(request: WireRequest): WireRequest {
  for (const rs of request.resourceSpans ?? []) {
    for (const ss of rs.scopeSpans ?? []) {
      for (const span of ss.spans ?? []) {
        for (const key of ['traceId', 'spanId', 'parentSpanId'] as const) {
          const v = span[key];
          if (v) span[key] = Buffer.from(v, 'base64').toString('hex');
        }
      }
    }
  }
  return request;
}

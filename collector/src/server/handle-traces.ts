import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkBearer } from '../ingest/check-bearer.js';
import type { TracesHandlerDeps } from '../ingest/ingest-deps.js';
import { type ExportOutcome, ingestExport, refuseUnread } from '../ingest/ingest-export.js';
import { readBody } from '../ingest/read-body.js';
import type { ReceiverStats } from '../ingest/receiver-stats.js';
import {
  CONTENT_TYPES,
  encodeExportResponse,
  encodeStatus,
  type OtlpEncoding,
  RpcCode,
} from '../otlp/otlp-responses.js';

/** POST /v1/traces per the OTLP/HTTP spec; answers only after the rows are durable. */
export async function handleTraces(
  req: IncomingMessage,
  res: ServerResponse,
  deps: TracesHandlerDeps,
): Promise<void> {
  const { config, stats } = deps;
  const encoding = encodingOf(req.headers['content-type']);
  const errorEncoding: OtlpEncoding = encoding ?? 'json';
  const fail = (status: number, code: number, message: string, headers: Record<string, string> = {}) => {
    stats.countResponse(status);
    send(res, status, errorEncoding, encodeStatus(errorEncoding, code, message), headers);
  };

  if (config.token !== undefined && !checkBearer(req.headers.authorization, config.token)) {
    req.resume();
    fail(
      401,
      RpcCode.UNAUTHENTICATED,
      'missing or wrong bearer token: send Authorization: Bearer <FAULTLINE_INGEST_TOKEN>',
      {
        'www-authenticate': 'Bearer',
      },
    );
    return;
  }
  if (encoding === undefined) {
    req.resume();
    fail(
      415,
      RpcCode.INVALID_ARGUMENT,
      `Content-Type "${req.headers['content-type'] ?? ''}" is not supported; send application/x-protobuf or application/json`,
    );
    return;
  }
  const refused = refuseUnread(deps);
  if (refused) {
    req.resume();
    return answer(res, errorEncoding, stats, refused);
  }
  const outcome = await ingestExport(deps, encoding, (budget) => readBody(req, config, budget));
  // Whatever of the body is still coming is drained, so the 429 reaches the client.
  if (!outcome.ok && outcome.unread) req.resume();
  if (!outcome.ok && outcome.status === 413) res.setHeader('connection', 'close');
  answer(res, encoding, stats, outcome);
}

/** Sends an outcome as OTLP/HTTP: the ExportTraceServiceResponse, or a google.rpc.Status. */
function answer(
  res: ServerResponse,
  encoding: OtlpEncoding,
  stats: ReceiverStats,
  outcome: ExportOutcome,
): void {
  if (outcome.ok) {
    stats.countResponse(200);
    send(res, 200, encoding, encodeExportResponse(encoding, outcome.rejectedSpans, outcome.message));
    return;
  }
  stats.countResponse(outcome.status);
  const headers: Record<string, string> =
    outcome.retryAfter === undefined ? {} : { 'retry-after': String(outcome.retryAfter) };
  send(res, outcome.status, encoding, encodeStatus(encoding, outcome.code, outcome.message), headers);
}

/** The body encoding a Content-Type names, or undefined when unsupported (415). */
export function encodingOf(contentType: string | undefined): OtlpEncoding | undefined {
  const media = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (media === 'application/x-protobuf' || media === 'application/protobuf') return 'protobuf';
  if (media === 'application/json') return 'json';
  return undefined;
}

/** Sends an OTLP/HTTP answer body in the request's encoding. */
export function send(
  res: ServerResponse,
  status: number,
  encoding: OtlpEncoding,
  body: Buffer,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': CONTENT_TYPES[encoding],
    'content-length': body.length,
    ...headers,
  });
  res.end(body);
}

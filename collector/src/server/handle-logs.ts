import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkBearer } from '../ingest/check-bearer.js';
import { readBody } from '../ingest/read-body.js';
import { ingestLogsExport, type LogsOutcome } from '../logs-ingest/ingest-logs-export.js';
import type { LogsHandlerDeps } from '../logs-ingest/logs-handler-deps.js';
import { encodeExportResponse, encodeStatus, type OtlpEncoding, RpcCode } from '../otlp/otlp-responses.js';
import { encodingOf, send } from './handle-traces.js';

/**
 * POST /v1/logs per the OTLP/HTTP spec, with /v1/traces' rules: the same token, content types,
 * gzip, body limits and decode budget, error bodies and statuses. Answers only after the rows are
 * durable in the log writer.
 */
export async function handleLogs(
  req: IncomingMessage,
  res: ServerResponse,
  deps: LogsHandlerDeps,
): Promise<void> {
  const { config } = deps.receiver;
  const encoding = encodingOf(req.headers['content-type']);
  if (config.token !== undefined && !checkBearer(req.headers.authorization, config.token)) {
    req.resume();
    return answer(res, encoding ?? 'json', deps, {
      ok: false,
      status: 401,
      code: RpcCode.UNAUTHENTICATED,
      message: 'missing or wrong bearer token: send Authorization: Bearer <FAULTLINE_INGEST_TOKEN>',
    });
  }
  if (encoding === undefined) {
    req.resume();
    return answer(res, 'json', deps, {
      ok: false,
      status: 415,
      code: RpcCode.INVALID_ARGUMENT,
      message: `Content-Type "${req.headers['content-type'] ?? ''}" is not supported; send application/x-protobuf or application/json`,
    });
  }
  const outcome = await ingestLogsExport(deps, encoding, (budget) => readBody(req, config, budget));
  // Whatever of the body is still coming is drained, so the answer reaches the client.
  if (!outcome.ok && outcome.unread) req.resume();
  if (!outcome.ok && outcome.status === 413) res.setHeader('connection', 'close');
  answer(res, encoding, deps, outcome);
}

/** Sends an outcome: the ExportLogsServiceResponse, or a google.rpc.Status. */
function answer(
  res: ServerResponse,
  encoding: OtlpEncoding,
  deps: LogsHandlerDeps,
  outcome: LogsOutcome,
): void {
  if (outcome.ok) {
    deps.stats.countResponse(200);
    const body = encodeExportResponse(
      encoding,
      outcome.rejectedRecords,
      outcome.message,
      'rejectedLogRecords',
    );
    send(res, 200, encoding, body);
    return;
  }
  deps.stats.countResponse(outcome.status);
  const headers: Record<string, string> = {
    ...(outcome.status === 401 ? { 'www-authenticate': 'Bearer' } : {}),
    ...(outcome.retryAfter === undefined ? {} : { 'retry-after': String(outcome.retryAfter) }),
  };
  send(res, outcome.status, encoding, encodeStatus(encoding, outcome.code, outcome.message), headers);
}

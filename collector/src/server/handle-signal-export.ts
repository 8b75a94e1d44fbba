import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkBearer } from '../ingest/check-bearer.js';
import type { ExportFailure } from '../ingest/ingest-export.js';
import { readBody } from '../ingest/read-body.js';
import type { AcceptedExport, SignalExport } from '../ingest/signal-export.js';
import { encodeExportResponse, encodeStatus, type OtlpEncoding, RpcCode } from '../otlp/otlp-responses.js';
import { encodingOf, send } from './handle-traces.js';

/**
 * POST /v1/metrics and /v1/logs per the OTLP/HTTP spec, with /v1/traces' rules: the same token,
 * content types, gzip, body limits and decode budget, error bodies and statuses. Answers only after
 * the rows are durable in the signal's writer.
 */
export async function handleSignalExport<Accepted extends AcceptedExport>(
  req: IncomingMessage,
  res: ServerResponse,
  signal: SignalExport<Accepted>,
): Promise<void> {
  const { config } = signal;
  const encoding = encodingOf(req.headers['content-type']);
  if (config.token !== undefined && !checkBearer(req.headers.authorization, config.token)) {
    req.resume();
    return answer(res, encoding ?? 'json', signal, {
      ok: false,
      status: 401,
      code: RpcCode.UNAUTHENTICATED,
      message: 'missing or wrong bearer token: send Authorization: Bearer <FAULTLINE_INGEST_TOKEN>',
    });
  }
  if (encoding === undefined) {
    req.resume();
    return answer(res, 'json', signal, {
      ok: false,
      status: 415,
      code: RpcCode.INVALID_ARGUMENT,
      message: `Content-Type "${req.headers['content-type'] ?? ''}" is not supported; send application/x-protobuf or application/json`,
    });
  }
  const outcome = await signal.ingest(encoding, (budget) => readBody(req, config, budget));
  // Whatever of the body is still coming is drained, so the answer reaches the client.
  if (!outcome.ok && outcome.unread) req.resume();
  if (!outcome.ok && outcome.status === 413) res.setHeader('connection', 'close');
  answer(res, encoding, signal, outcome);
}

/** Sends an outcome: the signal's Export…ServiceResponse, or a google.rpc.Status. */
function answer<Accepted extends AcceptedExport>(
  res: ServerResponse,
  encoding: OtlpEncoding,
  signal: SignalExport<Accepted>,
  outcome: Accepted | ExportFailure,
): void {
  if (outcome.ok) {
    signal.stats.countResponse(200);
    const rejected = signal.rejectedOf(outcome);
    send(res, 200, encoding, encodeExportResponse(encoding, rejected, outcome.message, signal.rejectedField));
    return;
  }
  signal.stats.countResponse(outcome.status);
  const headers: Record<string, string> = {
    ...(outcome.status === 401 ? { 'www-authenticate': 'Bearer' } : {}),
    ...(outcome.retryAfter === undefined ? {} : { 'retry-after': String(outcome.retryAfter) }),
  };
  send(res, outcome.status, encoding, encodeStatus(encoding, outcome.code, outcome.message), headers);
}

import type { handleUnaryCall, Metadata, ServerUnaryCall, ServiceError, sendUnaryData } from '@grpc/grpc-js';
import { Metadata as GrpcMetadata } from '@grpc/grpc-js';
import { checkBearer } from '../ingest/check-bearer.js';
import type { TracesHandlerDeps } from '../ingest/ingest-deps.js';
import {
  type ExportFailure,
  type ExportOutcome,
  ingestExport,
  refuseUnread,
} from '../ingest/ingest-export.js';
import { encodeExportResponse, RpcCode } from '../otlp/otlp-responses.js';
import { encodeRetryStatus, STATUS_DETAILS_TRAILER } from './grpc-status-details.js';

/**
 * TraceService/Export: the OTLP/HTTP rules over gRPC (the same token, refusals, decode budget,
 * writer and counters, through `ingestExport`), answered only once the rows are durable.
 * `track` registers each call's work so shutdown can wait for it.
 */
export function exportHandler(
  deps: TracesHandlerDeps,
  track: (work: Promise<void>) => void,
): handleUnaryCall<Buffer, Buffer> {
  return (call: ServerUnaryCall<Buffer, Buffer>, callback: sendUnaryData<Buffer>) => {
    const work = exportOnce(call, deps).then(
      (outcome) => reply(callback, deps, outcome),
      (err: unknown) => {
        console.error('[faultline-collector] gRPC export failed:', err);
        deps.stats.countResponse(500);
        callback({
          code: RpcCode.INTERNAL,
          details: 'the collector failed to handle this export; see its log',
        });
      },
    );
    track(work);
  };
}

async function exportOnce(
  call: ServerUnaryCall<Buffer, Buffer>,
  deps: TracesHandlerDeps,
): Promise<ExportOutcome> {
  const { token } = deps.config;
  if (token !== undefined && !checkBearer(authorizationOf(call.metadata), token)) {
    return {
      ok: false,
      status: 401,
      code: RpcCode.UNAUTHENTICATED,
      message: 'missing or wrong bearer token: send metadata authorization: Bearer <FAULTLINE_INGEST_TOKEN>',
    };
  }
  const refused = refuseUnread(deps);
  if (refused) return refused;
  // grpc-js has read (and gunzipped) the message within grpc.max_receive_message_length before the
  // handler runs, so the whole body and its decoded share are reserved at once, before decoding.
  const body = call.request;
  return ingestExport(deps, 'protobuf', async ({ lease, holdFor }) => {
    await lease.reserve(holdFor(body.length));
    return body;
  });
}

function reply(callback: sendUnaryData<Buffer>, deps: TracesHandlerDeps, outcome: ExportOutcome): void {
  // Counted under the HTTP status of the same outcome, so /metrics reads alike for both transports.
  deps.stats.countResponse(outcome.ok ? 200 : outcome.status);
  if (outcome.ok) {
    callback(null, encodeExportResponse('protobuf', outcome.rejectedSpans, outcome.message));
    return;
  }
  callback(grpcFailure(outcome));
}

/** A refused export as a gRPC status, with RetryInfo in the trailer when the client should retry. */
export function grpcFailure(outcome: ExportFailure): Partial<ServiceError> {
  const metadata = new GrpcMetadata();
  if (outcome.retryAfter !== undefined) {
    metadata.set(
      STATUS_DETAILS_TRAILER,
      encodeRetryStatus(outcome.code, outcome.message, outcome.retryAfter),
    );
  }
  return { code: outcome.code, details: outcome.message, metadata };
}

export function authorizationOf(metadata: Metadata): string | undefined {
  const value = metadata.get('authorization')[0];
  return typeof value === 'string' ? value : undefined;
}

import type { handleUnaryCall, Metadata, ServerUnaryCall, ServiceError, sendUnaryData } from '@grpc/grpc-js';
import { Metadata as GrpcMetadata } from '@grpc/grpc-js';
import { checkBearer } from '../ingest/check-bearer.js';
import type { ExportFailure } from '../ingest/ingest-export.js';
import type { AcceptedExport, SignalExport } from '../ingest/signal-export.js';
import { encodeExportResponse, RpcCode } from '../otlp/otlp-responses.js';
import { encodeRetryStatus, STATUS_DETAILS_TRAILER } from './grpc-status-details.js';

/**
 * A signal's Export over gRPC: the same token, then the signal's own ingest, answered only once
 * the rows are durable, with the status codes and RetryInfo of every OTLP/gRPC answer. `track`
 * registers each call's work so shutdown can wait for it.
 */
export function exportHandler<Accepted extends AcceptedExport>(
  signal: SignalExport<Accepted>,
  track: (work: Promise<void>) => void,
): handleUnaryCall<Buffer, Buffer> {
  return (call: ServerUnaryCall<Buffer, Buffer>, callback: sendUnaryData<Buffer>) => {
    const work = exportOnce(call, signal).then(
      (outcome) => reply(callback, signal, outcome),
      (err: unknown) => {
        console.error(`[faultline-collector] gRPC ${signal.what} failed:`, err);
        signal.stats.countResponse(500);
        callback({
          code: RpcCode.INTERNAL,
          details: 'the collector failed to handle this export; see its log',
        });
      },
    );
    track(work);
  };
}

async function exportOnce<Accepted extends AcceptedExport>(
  call: ServerUnaryCall<Buffer, Buffer>,
  signal: SignalExport<Accepted>,
): Promise<Accepted | ExportFailure> {
  const { token } = signal.config;
  if (token !== undefined && !checkBearer(authorizationOf(call.metadata), token)) {
    return {
      ok: false,
      status: 401,
      code: RpcCode.UNAUTHENTICATED,
      message: 'missing or wrong bearer token: send metadata authorization: Bearer <FAULTLINE_INGEST_TOKEN>',
    };
  }
  // grpc-js has read (and gunzipped) the message within grpc.max_receive_message_length before the
  // handler runs, so the whole body and its decoded share are reserved at once, before decoding.
  const body = call.request;
  return signal.ingest('protobuf', async ({ lease, holdFor }) => {
    await lease.reserve(holdFor(body.length));
    return body;
  });
}

function reply<Accepted extends AcceptedExport>(
  callback: sendUnaryData<Buffer>,
  signal: SignalExport<Accepted>,
  outcome: Accepted | ExportFailure,
): void {
  // Counted under the HTTP status of the same outcome, so /metrics reads alike for both transports.
  signal.stats.countResponse(outcome.ok ? 200 : outcome.status);
  if (outcome.ok) {
    callback(null, encodeExportResponse('protobuf', signal.rejectedOf(outcome), outcome.message));
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

function authorizationOf(metadata: Metadata): string | undefined {
  const value = metadata.get('authorization')[0];
  return typeof value === 'string' ? value : undefined;
}

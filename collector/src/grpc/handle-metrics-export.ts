import type { handleUnaryCall, ServerUnaryCall, sendUnaryData } from '@grpc/grpc-js';
import { checkBearer } from '../ingest/check-bearer.js';
import { ingestMetricsExport, type MetricsOutcome } from '../metrics-ingest/ingest-metrics-export.js';
import type { MetricsHandlerDeps } from '../metrics-ingest/metrics-handler-deps.js';
import { encodeExportResponse, RpcCode } from '../otlp/otlp-responses.js';
import { authorizationOf, grpcFailure } from './handle-export.js';

/**
 * MetricsService/Export: /v1/metrics' rules over gRPC (token, decode budget, count writer, durable
 * acknowledgement), answered with the status codes and RetryInfo of TraceService/Export.
 */
export function metricsExportHandler(
  deps: MetricsHandlerDeps,
  track: (work: Promise<void>) => void,
): handleUnaryCall<Buffer, Buffer> {
  return (call: ServerUnaryCall<Buffer, Buffer>, callback: sendUnaryData<Buffer>) => {
    const work = exportOnce(call, deps).then(
      (outcome) => reply(callback, deps, outcome),
      (err: unknown) => {
        console.error('[faultline-collector] gRPC metrics export failed:', err);
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

function exportOnce(
  call: ServerUnaryCall<Buffer, Buffer>,
  deps: MetricsHandlerDeps,
): Promise<MetricsOutcome> {
  const { token } = deps.receiver.config;
  if (token !== undefined && !checkBearer(authorizationOf(call.metadata), token)) {
    return Promise.resolve({
      ok: false,
      status: 401,
      code: RpcCode.UNAUTHENTICATED,
      message: 'missing or wrong bearer token: send metadata authorization: Bearer <FAULTLINE_INGEST_TOKEN>',
    });
  }
  // grpc-js has read and gunzipped the whole message already: reserve it and its decoded share at once.
  const body = call.request;
  return ingestMetricsExport(deps, 'protobuf', async ({ lease, holdFor }) => {
    await lease.reserve(holdFor(body.length));
    return body;
  });
}

function reply(callback: sendUnaryData<Buffer>, deps: MetricsHandlerDeps, outcome: MetricsOutcome): void {
  // Counted under the HTTP status of the same outcome, so /metrics reads alike for both transports.
  deps.stats.countResponse(outcome.ok ? 200 : outcome.status);
  if (outcome.ok) {
    callback(null, encodeExportResponse('protobuf', outcome.rejectedPoints, outcome.message));
    return;
  }
  callback(grpcFailure(outcome));
}

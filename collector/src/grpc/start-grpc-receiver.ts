import { Server, ServerCredentials } from '@grpc/grpc-js';
import { logsExport, metricsExport, traceExport } from '../ingest/export-signals.js';
import type { TracesHandlerDeps } from '../ingest/ingest-deps.js';
import type { LogsHandlerDeps } from '../logs-ingest/logs-handler-deps.js';
import type { MetricsHandlerDeps } from '../metrics-ingest/metrics-handler-deps.js';
import { exportHandler } from './handle-export.js';
import { LOGS_SERVICE } from './logs-service.js';
import { METRICS_SERVICE } from './metrics-service.js';
import { TRACE_SERVICE } from './trace-service.js';

export interface GrpcReceiver {
  /** The bound port (the chosen one when configured as 0). */
  port: number;
  /** `host:port` as a gRPC client dials it, e.g. `127.0.0.1:4317` or `[::1]:4317`. */
  address: string;
  /** Stops the server: in-flight calls finish, then after `graceMs` what is left is cut. */
  shutdown(graceMs: number): Promise<void>;
}

/**
 * OTLP/gRPC on `config.host:config.grpcPort`, plaintext like the HTTP receiver (and under the same
 * loopback/token rule, checked when the config was resolved). Calls share `deps` with /v1/traces,
 * `metrics` (when the collector stores metrics) with /v1/metrics and `logs` with /v1/logs; without
 * them MetricsService and LogsService are not served (UNIMPLEMENTED).
 */
export async function startGrpcReceiver(
  deps: TracesHandlerDeps,
  track: (work: Promise<void>) => void,
  metrics?: MetricsHandlerDeps,
  logs?: LogsHandlerDeps,
): Promise<GrpcReceiver> {
  const { config } = deps;
  const server = new Server({
    // Bounds the message both as framed and once gunzipped (grpc-js checks each); over it the call
    // ends RESOURCE_EXHAUSTED without RetryInfo, which clients do not retry.
    'grpc.max_receive_message_length': config.maxDecompressedBytes,
  });
  server.addService(TRACE_SERVICE, { Export: exportHandler(traceExport(deps), track) });
  if (metrics) server.addService(METRICS_SERVICE, { Export: exportHandler(metricsExport(metrics), track) });
  if (logs) server.addService(LOGS_SERVICE, { Export: exportHandler(logsExport(logs), track) });
  const host = config.host.includes(':') && !config.host.startsWith('[') ? `[${config.host}]` : config.host;
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`${host}:${config.grpcPort}`, ServerCredentials.createInsecure(), (err, bound) =>
      err
        ? reject(
            new Error(
              `could not listen for OTLP/gRPC on ${host}:${config.grpcPort} (FAULTLINE_OTLP_GRPC_PORT): ${err.message}`,
            ),
          )
        : resolve(bound),
    );
  });
  return {
    port,
    address: `${host}:${port}`,
    shutdown(graceMs) {
      return new Promise<void>((resolve) => {
        const cut = setTimeout(() => server.forceShutdown(), graceMs);
        server.tryShutdown(() => {
          clearTimeout(cut);
          resolve();
        });
      });
    },
  };
}

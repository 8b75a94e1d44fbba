import { Client, credentials, Metadata } from '@grpc/grpc-js';
import protobuf from 'protobufjs/minimal.js';
import { TRACE_EXPORT_PATH } from '../../../src/grpc/trace-service.js';

export interface GrpcAnswer {
  /** grpc status code (0 = OK). */
  code: number;
  details: string;
  /** Trailers of a failed call. */
  trailers?: Metadata;
  /** The Export response bytes (ExportTraceServiceResponse, …) of a successful call. */
  response?: Buffer;
}

/**
 * One Export call with raw request bytes, as any client could send them: TraceService's unless
 * `path` names another service's (METRICS_EXPORT_PATH).
 */
export function exportRaw(
  target: string | Client,
  body: Buffer,
  options: { token?: string; gzip?: boolean; path?: string } = {},
): Promise<GrpcAnswer> {
  // A client passed in is the caller's to reuse and close.
  const client = typeof target === 'string' ? grpcClient(target, options) : target;
  const metadata = new Metadata();
  if (options.token) metadata.set('authorization', `Bearer ${options.token}`);
  const identity = (b: Buffer) => b;
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      options.path ?? TRACE_EXPORT_PATH,
      identity,
      identity,
      body,
      metadata,
      { deadline: Date.now() + 15_000 },
      (err, response) => {
        if (client !== target) client.close();
        if (err) resolve({ code: err.code, details: err.details, trailers: err.metadata });
        else resolve({ code: 0, details: '', response });
      },
    );
  });
}

/** A plain grpc-js client for `host:port`, gzip-compressing its messages when asked. */
export function grpcClient(address: string, options: { gzip?: boolean } = {}): Client {
  // 2 = gzip in grpc-js's compression algorithms enum.
  return new Client(address, credentials.createInsecure(), {
    ...(options.gzip ? { 'grpc.default_compression_algorithm': 2 } : {}),
  });
}

/** The partial_success of an ExportTraceServiceResponse (zeros when absent). */
export function partialSuccess(response: Buffer): { rejectedSpans: number; errorMessage: string } {
  const { rejected, errorMessage } = exportPartialSuccess(response);
  return { rejectedSpans: rejected, errorMessage };
}

/**
 * The partial_success of any signal's Export response (zeros when absent): field 1 counts what was
 * rejected (spans, data points), field 2 says why.
 */
export function exportPartialSuccess(response: Buffer): { rejected: number; errorMessage: string } {
  const out = { rejected: 0, errorMessage: '' };
  const r = protobuf.Reader.create(response);
  while (r.pos < r.len) {
    const tag = r.uint32();
    if (tag >>> 3 !== 1) {
      r.skipType(tag & 7);
      continue;
    }
    const inner = protobuf.Reader.create(r.bytes());
    while (inner.pos < inner.len) {
      const t = inner.uint32();
      if (t >>> 3 === 1) out.rejected = Number(inner.int64());
      else if (t >>> 3 === 2) out.errorMessage = inner.string();
      else inner.skipType(t & 7);
    }
  }
  return out;
}

/** The retry delay (seconds) of the google.rpc.RetryInfo in a grpc-status-details-bin trailer. */
export function retryDelaySeconds(trailers: Metadata | undefined): number | undefined {
  const bin = trailers?.get('grpc-status-details-bin')[0];
  if (!(bin instanceof Buffer)) return undefined;
  const status = protobuf.Reader.create(bin);
  while (status.pos < status.len) {
    const tag = status.uint32();
    if (tag >>> 3 !== 3) {
      status.skipType(tag & 7);
      continue;
    }
    const any = protobuf.Reader.create(status.bytes());
    let typeUrl = '';
    let value: Uint8Array | undefined;
    while (any.pos < any.len) {
      const t = any.uint32();
      if (t >>> 3 === 1) typeUrl = any.string();
      else if (t >>> 3 === 2) value = any.bytes();
      else any.skipType(t & 7);
    }
    if (typeUrl !== 'type.googleapis.com/google.rpc.RetryInfo' || !value) continue;
    const info = protobuf.Reader.create(value);
    info.uint32(); // retry_delay
    const duration = protobuf.Reader.create(info.bytes());
    duration.uint32(); // seconds
    return Number(duration.int64());
  }
  return undefined;
}

import protobuf from 'protobufjs/minimal.js';

/** The trailer gRPC clients read a rich google.rpc.Status from. */
export const STATUS_DETAILS_TRAILER = 'grpc-status-details-bin';

const RETRY_INFO_TYPE = 'type.googleapis.com/google.rpc.RetryInfo';

/**
 * google.rpc.Status { code, message, details: [Any(google.rpc.RetryInfo { retry_delay })] }.
 * OTLP/gRPC clients retry RESOURCE_EXHAUSTED only when the status carries RetryInfo (the spec's
 * "server signals it can recover"), and then wait `retry_delay`; without it the batch is dropped.
 */
export function encodeRetryStatus(code: number, message: string, retryAfterSeconds: number): Buffer {
  const retryInfo = protobuf.Writer.create();
  // RetryInfo.retry_delay (1) = google.protobuf.Duration { seconds (1) }
  retryInfo.uint32((1 << 3) | 2).fork();
  retryInfo.uint32((1 << 3) | 0).int64(Math.max(0, Math.ceil(retryAfterSeconds)));
  retryInfo.ldelim();
  const w = protobuf.Writer.create();
  w.uint32((1 << 3) | 0).int32(code);
  if (message) w.uint32((2 << 3) | 2).string(message);
  // details (3) = Any { type_url (1), value (2) }
  w.uint32((3 << 3) | 2).fork();
  w.uint32((1 << 3) | 2).string(RETRY_INFO_TYPE);
  w.uint32((2 << 3) | 2).bytes(retryInfo.finish());
  w.ldelim();
  return Buffer.from(w.finish());
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ReceiverConfig } from '../config/receiver-config.js';
import { decodeTraces } from '../otlp/decode-traces.js';
import { decodedBytesEstimate } from '../otlp/decoded-size.js';
import { OtlpDecodeError } from '../otlp/otlp-decode-error.js';
import {
  CONTENT_TYPES,
  encodeExportResponse,
  encodeStatus,
  type OtlpEncoding,
  RpcCode,
} from '../otlp/otlp-responses.js';
import type { SpanWriter } from '../types.js';
import { checkBearer } from './check-bearer.js';
import { type DecodeBudget, DecodeBudgetError } from './decode-budget.js';
import { BodyError, readBody } from './read-body.js';
import type { ReceiverStats } from './receiver-stats.js';

export interface TracesHandlerDeps {
  config: ReceiverConfig;
  writer: SpanWriter;
  stats: ReceiverStats;
  /** Bytes all requests may hold while being read and decoded; shared by the whole receiver. */
  decodeBudget: DecodeBudget;
  /** True once shutdown began: new exports get 503 so clients retry elsewhere or later. */
  isClosing: () => boolean;
  /** Requests between the closing check and their write() call. */
  decoding: { count: number };
  /** Set when the writer last refused a batch: while its queue is no shorter, refuse unread. */
  saturation?: { queueDepth: number; retryAfter: number; message: string };
}

/** Seconds a client should wait when the collector is stopping. */
const CLOSING_RETRY_AFTER = 5;

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
  if (deps.isClosing()) {
    req.resume();
    fail(503, RpcCode.UNAVAILABLE, 'collector is shutting down; retry later', {
      'retry-after': String(CLOSING_RETRY_AFTER),
    });
    return;
  }

  if (deps.saturation) {
    // Under overload, refuse before reading and decoding: the cheapest 429 keeps memory and CPU flat.
    if (deps.writer.stats().queueDepth >= deps.saturation.queueDepth) {
      req.resume();
      const { retryAfter, message } = deps.saturation;
      fail(429, RpcCode.RESOURCE_EXHAUSTED, message, { 'retry-after': String(retryAfter) });
      return;
    }
    deps.saturation = undefined;
  }

  // Counted until write() is called, so shutdown knows when no more rows can arrive.
  deps.decoding.count++;
  // Held from the first body byte until the rows are handed to the writer, which then bounds them.
  const lease = deps.decodeBudget.lease();
  let decoded: ReturnType<typeof decodeTraces>;
  try {
    const holdFor = (n: number) => n + decodedBytesEstimate(n, encoding);
    const body = await readBody(req, config, { lease, holdFor });
    decoded = decodeTraces(body, encoding, config);
    stats.bodiesDecoded++;
    stats.bytesDecoded += body.length;
  } catch (err) {
    lease.release();
    deps.decoding.count--;
    if (err instanceof DecodeBudgetError) {
      // Whatever of the body is still coming is drained, so the 429 reaches the client.
      req.resume();
      fail(429, RpcCode.RESOURCE_EXHAUSTED, err.message, { 'retry-after': String(err.retryAfterSeconds) });
      return;
    }
    if (err instanceof BodyError || err instanceof OtlpDecodeError) {
      if (err instanceof BodyError && err.status === 413) res.setHeader('connection', 'close');
      fail(err.status, RpcCode.INVALID_ARGUMENT, err.message);
      return;
    }
    // Anything else escaping a decoder is still bad input (e.g. a RangeError on absurd data).
    fail(400, RpcCode.INVALID_ARGUMENT, `could not decode the request: ${(err as Error).message}`);
    return;
  }
  const spanCount = decoded.rows.length;
  let written: Promise<void> | undefined;
  try {
    if (spanCount > 0) written = deps.writer.write(decoded.rows);
  } catch (err) {
    written = Promise.reject(err);
  } finally {
    // The writer has the rows now (serialized, within its own queue bounds): drop ours, so they do
    // not stay alive until the acknowledgement uncounted by the budget.
    decoded.rows = [];
    lease.release();
    deps.decoding.count--;
  }

  stats.countInvalidSpans(decoded.rejectedSpans);
  stats.valuesTruncated += decoded.truncatedValues;
  if (written) {
    try {
      await written;
    } catch (err) {
      stats.spansRefusedSaturated += spanCount;
      const retryAfter = retryAfterOf(err);
      if (isSaturated(err)) {
        const message = `collector is saturated; retry after ${retryAfter}s`;
        const queueDepth = deps.writer.stats().queueDepth;
        // Only a full memory queue is remembered; a full spool is re-checked on every write.
        if (queueDepth > 0) deps.saturation = { queueDepth, retryAfter, message };
        fail(429, RpcCode.RESOURCE_EXHAUSTED, message, { 'retry-after': String(retryAfter) });
      } else {
        fail(503, RpcCode.UNAVAILABLE, `spans could not be stored: ${(err as Error).message}; retry later`, {
          'retry-after': String(retryAfter),
        });
      }
      return;
    }
  }
  stats.countResponse(200);
  send(res, 200, encoding, encodeExportResponse(encoding, decoded.rejectedSpans, decoded.message));
}

function encodingOf(contentType: string | undefined): OtlpEncoding | undefined {
  const media = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (media === 'application/x-protobuf' || media === 'application/protobuf') return 'protobuf';
  if (media === 'application/json') return 'json';
  return undefined;
}

function isSaturated(err: unknown): boolean {
  return err instanceof Error && err.name === 'SaturatedError';
}

function retryAfterOf(err: unknown): number {
  const s = (err as { retryAfterSeconds?: unknown })?.retryAfterSeconds;
  return typeof s === 'number' && s > 0 ? Math.ceil(s) : 1;
}

function send(
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

import type { OtlpEncoding } from './otlp-responses.js';

/**
 * Memory a request takes per body byte (after gunzip) beyond the body itself, from reading to the
 * hand-off to the writer: the inflater's output chunks, the JSON text and parsed tree, the rows,
 * and the writer's serialization of them. Measured on 9 000-span exports (Node 20, peak
 * `heapUsed + external` above a collected baseline, through gunzip → decodeTraces → serializeRows):
 *   - 60 attributes of ~70 characters per span: JSON 55.6 MiB → +385 MiB, 6.9× the body (the tree
 *     is still garbage when the rows serialize); protobuf 36.9 MiB of the same spans → +227 MiB, 6.1×;
 *   - 5 short attributes per span: JSON 6 MiB → 6.5×; protobuf 3 MiB → 7.7× (denser, so the same
 *     rows weigh more per body byte).
 * The decode budget reserves this before the bytes exist, so it counts what a request will hold,
 * not only what it was sent.
 */
export const DECODED_BYTES_PER_BODY_BYTE: Record<OtlpEncoding, number> = {
  json: 6,
  protobuf: 7,
};

/** Bytes to reserve for decoding a body of `bodyBytes` (after any gunzip), beyond the body. */
export function decodedBytesEstimate(bodyBytes: number, encoding: OtlpEncoding): number {
  return Math.ceil(bodyBytes * DECODED_BYTES_PER_BODY_BYTE[encoding]);
}

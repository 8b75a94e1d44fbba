import type { IncomingMessage } from 'node:http';
import { createGunzip } from 'node:zlib';
import type { DecodeLease } from './decode-budget.js';

/** A body the receiver will not decode; `status` is the HTTP answer (400, 413, 415). */
export class BodyError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = 'BodyError';
    this.status = status;
  }
}

export interface BodyLimits {
  maxBodyBytes: number;
  maxDecompressedBytes: number;
}

/**
 * Where a body's memory is counted: `lease` on the receiver's decode budget, and `holdFor(n)`, the
 * bytes a final (inflated) body of n bytes holds until its rows are handed on, itself included.
 */
export interface BodyBudget {
  lease: DecodeLease;
  holdFor: (bodyBytes: number) => number;
}

/**
 * Reads the request body within `maxBodyBytes` and gunzips it within `maxDecompressedBytes`,
 * reserving on the budget what the request holds: each chunk of the body as it arrives (the socket
 * paused while a reservation waits), then, before inflating or decoding, `holdFor(body size)`.
 * Body bytes are reserved as they arrive rather than from Content-Length, so a client that
 * declares 16 MiB and sends it slowly holds only what it sent, not budget others could use.
 * Inflating stops as soon as the output passes the cap, so a gzip bomb costs at most the cap in
 * memory, never its expanded size. Rejects with BodyError, or DecodeBudgetError when the budget
 * stays full.
 */
export async function readBody(
  req: IncomingMessage,
  limits: BodyLimits,
  budget: BodyBudget,
): Promise<Buffer> {
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding !== 'gzip' && encoding !== 'identity' && encoding !== '') {
    throw new BodyError(415, `Content-Encoding "${encoding}" is not supported; send gzip or identity`);
  }
  const declared = Number(req.headers['content-length'] ?? Number.NaN);
  if (declared > limits.maxBodyBytes) throw tooLarge(limits.maxBodyBytes);

  const raw = await collect(req, limits.maxBodyBytes, budget.lease);
  if (encoding === 'gzip') return inflate(raw, limits.maxDecompressedBytes, budget);
  await budget.lease.reserve(budget.holdFor(raw.length) - raw.length);
  return raw;
}

function tooLarge(max: number): BodyError {
  return new BodyError(
    413,
    `body is larger than ${max} bytes (FAULTLINE_MAX_BODY_BYTES); send smaller batches`,
  );
}

function collect(req: IncomingMessage, max: number, lease: DecodeLease): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    // Keep draining (and discarding) after a refusal, so the answer reaches a client still sending.
    const refuse = (err: Error) => {
      if (over) return;
      over = true;
      chunks.length = 0;
      reject(err);
    };
    req.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > max) return refuse(tooLarge(max));
      chunks.push(chunk);
      // This chunk is counted now; the next is not read until the budget has room for it.
      const wait = lease.reserve(chunk.length);
      if (!wait) return;
      req.pause();
      wait.then(
        () => req.resume(),
        (err: Error) => {
          refuse(err);
          req.resume();
        },
      );
    });
    req.on('end', () => {
      if (!over) resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    });
    req.on('error', (err) => refuse(new BodyError(400, `request body aborted: ${err.message}`)));
  });
}

/** Output chunk of the inflater: fewer, larger chunks than zlib's 16 KiB default for big bodies. */
const INFLATE_CHUNK = 128 * 1024;

/**
 * Gunzips `raw` into one buffer. The gzip trailer's ISIZE (the inflated size mod 2^32, honest for
 * every single-member body under 4 GiB) sizes the reservation and the output buffer before the
 * first byte is inflated, and no concatenation doubles the output at the end. A body that inflates
 * past what it declared (several gzip members, or a lie) reserves the excess as it comes, the
 * inflater paused while it waits; one that declares more than it holds only over-reserves.
 */
function inflate(raw: Buffer, max: number, { lease, holdFor }: BodyBudget): Promise<Buffer> {
  const declared =
    raw.length >= 18 && raw[0] === 0x1f && raw[1] === 0x8b ? raw.readUInt32LE(raw.length - 4) : 0;
  const expected = Math.min(declared, max);
  return Promise.resolve(lease.reserve(holdFor(expected))).then(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        const gz = createGunzip({ chunkSize: INFLATE_CHUNK });
        const out = Buffer.allocUnsafe(expected);
        const extra: Buffer[] = [];
        let total = 0;
        let covered = expected;
        let failed = false;
        const fail = (err: Error) => {
          if (failed) return;
          failed = true;
          gz.destroy();
          reject(err);
        };
        gz.on('data', (chunk: Buffer) => {
          if (failed) return;
          if (total + chunk.length > max) {
            return fail(
              new BodyError(
                413,
                `body decompresses to more than ${max} bytes (FAULTLINE_MAX_DECOMPRESSED_BYTES); send smaller batches`,
              ),
            );
          }
          if (total + chunk.length <= out.length) chunk.copy(out, total);
          else if (total >= out.length) extra.push(chunk);
          else {
            const fit = out.length - total;
            chunk.copy(out, total, 0, fit);
            extra.push(chunk.subarray(fit));
          }
          total += chunk.length;
          if (total <= covered) return;
          const wait = lease.reserve(holdFor(total) - holdFor(covered));
          covered = total;
          if (!wait) return;
          gz.pause();
          wait.then(() => gz.resume(), fail);
        });
        gz.on('end', () => {
          if (failed) return;
          if (extra.length === 0) resolve(out.subarray(0, total));
          else resolve(Buffer.concat([out, ...extra], total));
        });
        gz.on('error', (err) => fail(new BodyError(400, `body is not valid gzip: ${err.message}`)));
        gz.end(raw);
      }),
  );
}

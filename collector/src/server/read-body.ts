import type { IncomingMessage } from 'node:http';
import { gunzip } from 'node:zlib';

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
 * Reads the request body within `maxBodyBytes` and gunzips it within `maxDecompressedBytes`.
 * zlib stops inflating as soon as the output passes the cap, so a gzip bomb costs at most the
 * cap in memory, never its expanded size.
 */
export async function readBody(req: IncomingMessage, limits: BodyLimits): Promise<Buffer> {
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding !== 'gzip' && encoding !== 'identity' && encoding !== '') {
    throw new BodyError(415, `Content-Encoding "${encoding}" is not supported; send gzip or identity`);
  }
  const declared = Number(req.headers['content-length'] ?? Number.NaN);
  if (declared > limits.maxBodyBytes) throw tooLarge(limits.maxBodyBytes);

  const raw = await collect(req, limits.maxBodyBytes);
  if (encoding !== 'gzip') return raw;
  return new Promise((resolve, reject) => {
    gunzip(raw, { maxOutputLength: limits.maxDecompressedBytes }, (err, out) => {
      if (!err) resolve(out);
      else if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
        reject(
          new BodyError(
            413,
            `body decompresses to more than ${limits.maxDecompressedBytes} bytes ` +
              '(FAULTLINE_MAX_DECOMPRESSED_BYTES); send smaller batches',
          ),
        );
      } else reject(new BodyError(400, `body is not valid gzip: ${err.message}`));
    });
  });
}

function tooLarge(max: number): BodyError {
  return new BodyError(
    413,
    `body is larger than ${max} bytes (FAULTLINE_MAX_BODY_BYTES); send smaller batches`,
  );
}

function collect(req: IncomingMessage, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > max) {
        over = true;
        chunks.length = 0;
        // Keep draining (and discarding) so the 413 reaches a client that is still sending.
        reject(tooLarge(max));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!over) resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    });
    req.on('error', (err) => reject(new BodyError(400, `request body aborted: ${err.message}`)));
  });
}

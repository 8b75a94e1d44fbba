import { mayCarryError, parseJson } from './body-peek.js';

/**
 * A bounded copy of the body bytes an application reads, for silent-failure detection. Each chunk
 * is copied rather than kept: a parser's chunk is often a view of a larger socket read, which
 * keeping it would pin. Past `maxBytes` the copy drops what it holds and takes nothing more, so
 * a 50 MB stream costs at most the bound, and a body over the bound is not classified from its
 * bytes (a prefix of JSON does not parse, and guessing from one would be worse).
 */
export class BodyCopy {
  private chunks: Uint8Array[] | undefined = [];
  private size = 0;

  constructor(private readonly maxBytes: number) {}

  /** False once the body outgrew the bound or was read: callers stop offering chunks. */
  get open(): boolean {
    return this.chunks !== undefined;
  }

  /** Bytes held right now (0 after an overflow). */
  get held(): number {
    return this.size;
  }

  add(chunk: Uint8Array): void {
    const chunks = this.chunks;
    if (chunks === undefined || chunk.byteLength === 0) return;
    const size = this.size + chunk.byteLength;
    if (size > this.maxBytes) {
      this.chunks = undefined;
      this.size = 0;
      return;
    }
    // new Uint8Array(view) copies into a buffer of exactly this size (Buffer.slice would not copy).
    chunks.push(new Uint8Array(chunk));
    this.size = size;
  }

  /**
   * The copied body as JSON when it may report a failure; undefined otherwise or past the bound.
   * Read once, when the span ends: the copy is released then (the response object, which holds
   * it, may live much longer) and takes no more chunks. `success`: the status was 2xx, where
   * fewer markers can report a failure (see mayCarryError).
   */
  json(success = false): unknown {
    const chunks = this.chunks;
    const size = this.size;
    this.chunks = undefined;
    this.size = 0;
    if (chunks === undefined || size === 0) return undefined;
    // Decoded once, after the last chunk, so a character split across chunks decodes whole.
    const text = Buffer.concat(chunks, size).toString('utf8');
    return mayCarryError(text, success) ? parseJson(text) : undefined;
  }
}

import type { IncomingMessage } from 'node:http';
import { BodyCopy } from '../../shared/body-copy.js';

/**
 * Copies a node:http response body as the application reads it. Every way of reading one
 * (res.on('data'), pipe, for await and read(), resume(), axios, got) goes through the stream's
 * 'data' event, so the copy is taken in the instance's `emit`, synchronously, just before the
 * application's listeners get the same chunk. No listener is added and nothing is read on the
 * application's behalf: flowing mode, backpressure and timing stay the application's, and a body
 * it never reads is never copied. The instrumentation ends the span at 'end', after the last
 * 'data', so the copy is complete when the span processor asks for it. With `settle`, the copy is
 * read at 'end' instead, and `settle` hears only of a body that may report a failure.
 */
export function peekIncomingMessage(
  response: IncomingMessage,
  maxBytes: number,
  settle?: (body: unknown) => void,
): () => unknown {
  const copy = new BodyCopy(maxBytes);
  const emit = response.emit;
  const peekingEmit = function peekingEmit(this: IncomingMessage, event: string | symbol, chunk?: unknown) {
    if (event === 'end' && settle !== undefined) {
      // Decided here, before the instrumentation's own 'end' listener ends the span: a body that
      // cannot report a failure leaves nothing behind for the span processor.
      try {
        if (this.emit === peekingEmit) this.emit = emit;
        const body = copy.json(true);
        if (body !== undefined) settle(body);
      } catch {
        // The peek only ever costs itself.
      }
    } else if (event === 'data') {
      try {
        if (typeof chunk === 'string') {
          // After setEncoding() chunks are decoded text: re-encode with the stream's own encoding.
          copy.add(Buffer.from(chunk, (this.readableEncoding ?? 'utf8') as BufferEncoding));
        } else if (chunk instanceof Uint8Array) {
          copy.add(chunk);
        }
        // Past the bound there is nothing left to do per chunk: step out of the way if still on top.
        if (!copy.open && this.emit === peekingEmit) this.emit = emit;
      } catch {
        // A chunk we cannot copy only costs the peek, never the application's read.
      }
    }
    // biome-ignore lint/complexity/noArguments: forwards whatever the caller emitted, unchanged.
    return emit.apply(this, arguments as unknown as Parameters<typeof emit>);
  } as typeof response.emit;
  response.emit = peekingEmit;
  return () => copy.json();
}

/** What a tapped body reports: each chunk the application reads, and the end of its reading. */
export interface BodyTap {
  chunk(bytes: Uint8Array): void;
  /** The body was read to its end, cancelled or failed; called once. */
  done(): void;
}

/**
 * Puts a pass-through stream in place of a fetch Response's body, so the bytes the application
 * reads are reported as they pass: json(), text(), arrayBuffer(), a default or BYOB reader,
 * for await, pipeTo, Readable.fromWeb and clones all read the body's stream. A pass-through
 * rather than Response.clone(): a tee's second branch, read by us, would pull the body ahead of
 * the application and queue all of it in the application's branch.
 *
 * undici keeps the body in a private field; the one public door to it is clone(), which by the
 * Fetch spec tees the body's stream and keeps the first branch as the body ("set body's stream
 * to out1"). undici calls that stream's own `tee()`, so an own `tee` on this one stream hands
 * back the pass-through instead. Returns false, with the body untouched, when that did not
 * happen (the real tee's unread second branch is cancelled, so it queues nothing).
 */
export function tapFetchBody(response: Response, tap: BodyTap): boolean {
  const source = response.body;
  if (source === null || source.locked || response.bodyUsed) return false;
  const through = passThrough(source, once(tap));
  let taken = false;
  Object.defineProperty(source, 'tee', {
    configurable: true,
    value: () => {
      taken = true;
      // The clone gets an empty stream nobody reads; it is dropped with the clone.
      return [through, new ReadableStream()];
    },
  });
  let clone: Response;
  try {
    clone = response.clone();
  } finally {
    delete (source as { tee?: unknown }).tee;
  }
  if (taken && response.body === through) return true;
  clone.body?.cancel().catch(() => {});
  return false;
}

/**
 * A byte stream (so BYOB readers keep working) with no queue of its own (highWaterMark 0): it
 * reads the source only when the application asks for a chunk, one chunk per request, so the
 * application sees each chunk the moment the source has it and nothing is read ahead. The source
 * is locked only at the first read: until then undici can still cancel it (and free the
 * connection) when an unread Response is garbage collected.
 */
function passThrough(source: ReadableStream<Uint8Array>, tap: BodyTap): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let cancelled = false;
  return new ReadableStream(
    {
      type: 'bytes',
      async pull(controller) {
        reader ??= source.getReader();
        for (;;) {
          let result: ReadableStreamReadResult<Uint8Array>;
          try {
            result = await reader.read();
          } catch (err) {
            tap.done();
            // Rethrown from pull, the source's own error errors this stream for the application.
            throw err;
          }
          if (result.done) {
            tap.done();
            // Already closed when the application cancelled while this read was pending.
            if (cancelled) return;
            controller.close();
            // A pending BYOB read is answered "done" only through its request.
            controller.byobRequest?.respond(0);
            return;
          }
          const bytes = result.value;
          // A byte stream refuses empty chunks; a read must still be answered, so read on.
          if (bytes.byteLength === 0) continue;
          if (cancelled) return;
          try {
            tap.chunk(bytes);
          } catch {
            // Reporting a chunk never costs the application its read.
          }
          // The chunk came out of undici's own byte stream, which owns its buffer: handing it on
          // (enqueue transfers it) is what a native pipe does, with no copy.
          controller.enqueue(bytes as Uint8Array<ArrayBuffer>);
          return;
        }
      },
      cancel(reason) {
        cancelled = true;
        tap.done();
        return reader ? reader.cancel(reason) : source.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

function once(tap: BodyTap): BodyTap {
  let finished = false;
  return {
    chunk: (bytes) => {
      if (!finished) tap.chunk(bytes);
    },
    done: () => {
      if (finished) return;
      finished = true;
      tap.done();
    },
  };
}

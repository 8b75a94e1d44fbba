export interface SettleProbe {
  /** True once every span acknowledged before `settle()` was called is inserted (or quarantined). */
  done(): boolean;
  /** Acknowledged spans not yet inserted, for the timeout message. */
  pending(): number;
  /** The last insert failure, if any, so a timeout says why ClickHouse is behind. */
  lastError(): unknown;
  spoolDir: string;
}

/** Default for `settle({ timeoutMs })`: long enough for a 50 000-span segment on a slow engine. */
export const DEFAULT_SETTLE_TIMEOUT_MS = 30_000;

/**
 * Polls rather than hooking every completion path: settle is for tests, shutdown and
 * read-your-writes callers, and a 10 ms poll costs nothing next to an INSERT.
 */
export async function waitUntilSettled(
  probe: SettleProbe,
  timeoutMs: number,
  /** When settle() began waiting, if earlier than now: the message still names the caller's timeout. */
  startedAt = Date.now(),
): Promise<void> {
  if (!Number.isFinite(timeoutMs) || timeoutMs < 0) {
    throw new RangeError(`settle({ timeoutMs }) must be a non-negative number of ms, got ${timeoutMs}`);
  }
  const deadline = startedAt + timeoutMs;
  while (!probe.done()) {
    if (Date.now() >= deadline) {
      const err = probe.lastError();
      const why = err ? `; last insert error: ${err instanceof Error ? err.message : String(err)}` : '';
      throw new Error(
        `writer.settle: ${probe.pending()} acknowledged spans are still not inserted after ${timeoutMs} ms${why}. ` +
          `They are durable in ${probe.spoolDir} and insert once ClickHouse accepts them; check the store, or pass a larger timeoutMs.`,
      );
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

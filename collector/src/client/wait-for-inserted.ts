/**
 * Waits until a collector (possibly another process) has inserted every span and every metrics
 * data point (call_counts_1m) it acknowledged: with the default write-ahead ack, rows become
 * queryable shortly after the 200. For scripts and tests that read right after exporting;
 * in-process callers use `collector.settle()`.
 */
export async function waitForInserted(collectorUrl: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    const res = await fetch(`${collectorUrl}/healthz`);
    last = await res.text();
    const { writer, metrics } = JSON.parse(last) as {
      writer: { pendingInsert: number; queueDepth: number };
      // Absent from collectors that predate metrics ingest, null on one that does not receive them.
      metrics?: { pendingInsert: number } | null;
    };
    if (writer.pendingInsert === 0 && writer.queueDepth === 0 && (metrics?.pendingInsert ?? 0) === 0) return;
    if (Date.now() > deadline) {
      throw new Error(`spans or data points still pending insert after ${timeoutMs} ms: ${last}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

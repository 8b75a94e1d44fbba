/**
 * Waits until a collector (possibly another process) has inserted every span, every metrics data
 * point (call_counts_1m) and every log record (otel_logs) it acknowledged: with the default write-ahead ack, rows become
 * queryable shortly after the 200. For scripts and tests that read right after exporting;
 * in-process callers use `collector.settle()`.
 */
export async function waitForInserted(collectorUrl: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    const res = await fetch(`${collectorUrl}/healthz`);
    last = await res.text();
    const { writer, metrics, logs } = JSON.parse(last) as {
      writer: { pendingInsert: number; queueDepth: number };
      // Absent from collectors that predate metrics (logs) ingest, null on one that does not receive them.
      metrics?: { pendingInsert: number } | null;
      logs?: { pendingInsert: number } | null;
    };
    const pending = (metrics?.pendingInsert ?? 0) + (logs?.pendingInsert ?? 0);
    if (writer.pendingInsert === 0 && writer.queueDepth === 0 && pending === 0) return;
    if (Date.now() > deadline) {
      throw new Error(
        `spans, data points or log records still pending insert after ${timeoutMs} ms: ${last}`,
      );
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

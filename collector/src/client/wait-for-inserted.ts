/**
 * Waits until a collector (possibly another process) has inserted every span it acknowledged:
 * with the default write-ahead ack, rows become queryable shortly after the 200. For scripts and
 * tests that read right after exporting; in-process callers use `writer.settle()`.
 */
export async function waitForInserted(collectorUrl: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    const res = await fetch(`${collectorUrl}/healthz`);
    last = await res.text();
    const { writer } = JSON.parse(last) as { writer: { pendingInsert: number; queueDepth: number } };
    if (writer.pendingInsert === 0 && writer.queueDepth === 0) return;
    if (Date.now() > deadline) throw new Error(`spans still pending insert after ${timeoutMs} ms: ${last}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

// The running Faultline of a data directory, as `faultline sql`, `migrate` and `doctor` find it:
// `faultline start` records its URLs in the directory's lock (sql/src/lock), and an embedded data
// directory opens in one process only, so while it runs these commands talk to it over HTTP.

/**
 * Applies `--data-dir` (the same as FAULTLINE_DATA_DIR) and returns the data directory the commands
 * use, absolute. Throws on an empty value.
 */
export function useDataDir(sql, dataDirArg) {
  if (dataDirArg !== undefined) {
    if (!dataDirArg.trim())
      throw new Error('--data-dir is empty: give a directory, e.g. --data-dir ./.faultline/data.');
    process.env.FAULTLINE_DATA_DIR = dataDirArg;
  }
  return sql.resolveStoreOptions().dataDir;
}

/**
 * The process holding `dataDir`, or undefined when none runs (no lock, or one left by a process
 * that is gone). `where` describes it for a message: pid, host, since, and the URLs it recorded.
 */
export function runningInstance(sql, dataDir) {
  const lock = sql.readDirectoryLock(dataDir);
  if (!lock || lock.state === 'dead') return undefined;
  const { holder } = lock;
  const urls = sql.describeEndpoints(holder.endpoints);
  const host = lock.state === 'foreign' ? ` on host ${holder.host}` : '';
  return {
    ...lock,
    // Recorded URLs are dialable from the holder's host (loopback), not from another one.
    endpoints: lock.state === 'alive' ? (holder.endpoints ?? {}) : {},
    where: `pid ${holder.pid}${host}, since ${holder.since || 'an unknown time'}${urls ? `; ${urls}` : ''}`,
  };
}

/** GET <otlp>/healthz of a running collector: its parsed body, or an Error saying why not. */
export async function collectorHealth(otlpUrl, token) {
  try {
    const res = await fetch(`${otlpUrl}/healthz`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
      signal: AbortSignal.timeout(5000),
    });
    const text = await res.text();
    try {
      return JSON.parse(text);
    } catch {
      return new Error(`${otlpUrl}/healthz answered ${res.status} with no JSON`);
    }
  } catch (err) {
    return new Error(`no collector answers at ${otlpUrl} (${err.cause?.code ?? err.message})`);
  }
}

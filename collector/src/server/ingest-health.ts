import type { WriterStats } from '../types.js';
import type { ReceiverStats } from './receiver-stats.js';

/**
 * Whether what the collector accepted reached the store, in one object: for /healthz, and for the
 * dashboard in the one-process mode (`readIngestHealth`). Counts are since the collector started.
 */
export interface IngestHealth {
  /** When this collector started (epoch ms). */
  startedAt: number;
  /** Spans acknowledged to clients (fsync'd to the write-ahead log, or inserted). */
  accepted: number;
  /** Spans inserted into ClickHouse, so queryable (replays of an earlier run's log included). */
  stored: number;
  /** Acknowledged, not yet stored: on disk in `walDir`, inserted in order as ClickHouse takes them. */
  pending: number;
  /** When the oldest pending span was acknowledged (epoch ms), or null. */
  oldestPendingAt: number | null;
  /** Requests answered with an error status, and spans refused (saturated, unstorable, invalid). */
  refused: {
    requests: number;
    spans: number;
    /** Error responses by HTTP status, e.g. `{ "429": 3 }`. */
    byStatus: Record<string, number>;
    /** Of `spans`: dropped inside accepted requests as malformed (partial success). */
    invalidSpans: number;
    lastAt: number | null;
  };
  /** Failed insert attempts; each is retried, the spans stay on disk meanwhile. */
  insertErrors: { count: number; lastMessage: string | null; lastAt: number | null };
  /** Spans ClickHouse kept rejecting, moved aside to `<walDir>/rejected`. */
  quarantined: number;
  walDir: string;
}

export function ingestHealth(receiver: ReceiverStats, writer: WriterStats, startedAt: number): IngestHealth {
  const byStatus: Record<string, number> = {};
  let requests = 0;
  for (const [status, n] of receiver.responses) {
    if (status < 400) continue;
    byStatus[String(status)] = n;
    requests += n;
  }
  return {
    startedAt,
    accepted: writer.accepted,
    stored: writer.inserted,
    pending: writer.pendingInsert,
    oldestPendingAt: writer.oldestPendingAt,
    refused: {
      requests,
      spans: receiver.spansInvalid + receiver.spansRefusedSaturated,
      byStatus,
      invalidSpans: receiver.spansInvalid,
      lastAt: receiver.lastRefusedAt,
    },
    insertErrors: {
      count: writer.insertErrors,
      lastMessage: writer.lastInsertError?.message ?? null,
      lastAt: writer.lastInsertError?.at ?? null,
    },
    quarantined: writer.quarantined,
    walDir: writer.spoolDir,
  };
}

// On globalThis: the dashboard's copy of this package (loaded by Next.js at run time) must see
// the collector that scripts/start.mjs started in the same process.
const KEY = Symbol.for('faultline.ingestHealth');
type Getter = () => IngestHealth;

function getters(): Getter[] {
  const g = globalThis as { [KEY]?: Getter[] };
  g[KEY] ??= [];
  return g[KEY];
}

/** Makes a running collector's health readable in-process; returns the unregister function. */
export function registerIngestHealth(getter: Getter): () => void {
  getters().push(getter);
  return () => {
    const list = getters();
    const i = list.indexOf(getter);
    if (i >= 0) list.splice(i, 1);
  };
}

/** The health of the collector running in this process (the latest started), or null if none runs. */
export function readIngestHealth(): IngestHealth | null {
  const list = getters();
  const getter = list[list.length - 1];
  return getter ? getter() : null;
}

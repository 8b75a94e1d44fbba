import type { ReceiverStats } from '../ingest/receiver-stats.js';
import type { WriterStats } from '../types.js';

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
  /**
   * Accepted spans by their sampling mark (`ot=th` in the tracestate): `marked` carry a valid
   * threshold (weight 1/p), `invalid` a malformed one (stored with weight 1).
   */
  sampling: { marked: number; invalid: number };
  /** Failed insert attempts; each is retried, the spans stay on disk meanwhile. */
  insertErrors: { count: number; lastMessage: string | null; lastAt: number | null };
  /**
   * Spans ClickHouse refused on their own (a value it cannot parse or hold), set aside with the
   * reason in `<walDir>/rejected` while the rest of their batch landed.
   */
  quarantine: { spans: number; lastReason: string | null; lastAt: number | null; file: string | null };
  /** Acknowledged spans in a write-ahead segment that cannot be sealed (a read-only directory). */
  walError: { message: string; since: number; spans: number } | null;
  walDir: string;
  /** `ok`, or `degraded` with what is wrong in `problems` (see ingestStatus). */
  status: 'ok' | 'degraded';
  problems: string[];
}

/** Acknowledged spans waiting longer than this for their insert mean inserts are not landing. */
export const STALE_PENDING_MS = 60_000;

/**
 * Whether ingest is well, with what is wrong, from the writer's numbers: degraded while inserts
 * fail (spans wait on disk), while the write-ahead log cannot seal acknowledged spans, or while
 * the oldest acknowledged span has waited past STALE_PENDING_MS. Spans set aside by ClickHouse
 * do not degrade it (ingest works; the sender is at fault) but are listed.
 */
export function ingestStatus(
  w: WriterStats,
  now = Date.now(),
): { status: 'ok' | 'degraded'; problems: string[] } {
  const problems: string[] = [];
  if (w.spoolDepth > 0) {
    problems.push(
      `${w.spoolDepth} acknowledged spans wait on disk because ClickHouse inserts fail; they are retried until they land`,
    );
  }
  if (w.walError) {
    problems.push(
      `${w.walError.spans} acknowledged spans are in a write-ahead segment that cannot be sealed since ${new Date(w.walError.since).toISOString()}: make the write-ahead log directory (walDir) writable`,
    );
  }
  if (w.oldestPendingAt !== null && now - w.oldestPendingAt > STALE_PENDING_MS && w.spoolDepth === 0) {
    problems.push(
      `the oldest acknowledged span has waited ${Math.round((now - w.oldestPendingAt) / 1000)} s for its insert`,
    );
  }
  const degraded = problems.length > 0;
  if (w.quarantined > 0) {
    problems.push(
      `${w.quarantined} spans refused by ClickHouse on their own are kept with the reason in <walDir>/rejected`,
    );
  }
  return { status: degraded ? 'degraded' : 'ok', problems };
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
    sampling: { marked: receiver.samplingMarked, invalid: receiver.samplingMarkInvalid },
    insertErrors: {
      count: writer.insertErrors,
      lastMessage: writer.lastInsertError?.message ?? null,
      lastAt: writer.lastInsertError?.at ?? null,
    },
    quarantine: {
      spans: writer.quarantined,
      lastReason: writer.lastQuarantine?.reason ?? null,
      lastAt: writer.lastQuarantine?.at ?? null,
      file: writer.lastQuarantine?.file ?? null,
    },
    walError: writer.walError,
    walDir: writer.spoolDir,
    ...ingestStatus(writer),
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

/**
 * When a service counts as stopped: its last stored data (the end of the last minute holding any
 * of its calls or requests, alerts/service_last_seen) is at least this many seconds old. Its alerts
 * then move to `stale` instead of firing on the data it sent before it stopped: the ticket rule's
 * 6-hour window would otherwise keep a crashed service's ticket open for hours on old failures.
 * 600 s: twice the shortest burn window, so the minute granularity of last_seen plus a slow
 * exporter's batch never marks a live service stale, while a crash shows within ten minutes.
 */
export const DEFAULT_STALE_AFTER_S = 600;

/** Whether a service last seen at lastSeenS (epoch seconds; null: never seen) is stale at nowS. */
export function isStale(lastSeenS: number | null, nowS: number, staleAfterS: number): boolean {
  return lastSeenS !== null && nowS - lastSeenS >= staleAfterS;
}

/** The reason a stale alert is resolved with, e.g. "no data since 2026-03-01T18:27:00.000Z". */
export function staleReason(lastSeenS: number): string {
  return `no data since ${new Date(lastSeenS * 1000).toISOString()}`;
}

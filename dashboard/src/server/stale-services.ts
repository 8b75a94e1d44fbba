import { cache } from 'react';
import { collectorModule } from './collector-module';
import { getStore } from './store';

export interface StaleService {
  service: string;
  /** Epoch seconds: the end of its last minute with data (alerts/service_last_seen). */
  lastSeenS: number;
}

/** How far back a stopped service is still named: the longest burn window, as the evaluator looks. */
const LOOKBACK_S = 3 * 86_400;

/**
 * Services that stopped sending: their last data is FAULTLINE_ALERT_STALE_AFTER_S old or older
 * (the evaluator's own rule, isStale), read from the minute rollups (alerts/service_last_seen), so
 * any page can say "no data since …" for the price of two small scans, once per render. A note
 * only: a failing read names no service rather than failing the page.
 */
export const loadStaleServices = cache(async (): Promise<StaleService[]> => {
  const nowMs = Date.now();
  try {
    const { isStale, parseStaleAfter, DEFAULT_STALE_AFTER_S } = await collectorModule();
    let staleAfterS = DEFAULT_STALE_AFTER_S;
    try {
      staleAfterS = parseStaleAfter(process.env.FAULTLINE_ALERT_STALE_AFTER_S);
    } catch {
      // The Alerts page names the bad setting; the notes keep the default meanwhile.
    }
    const nowS = Math.floor(nowMs / 1000);
    const store = await getStore();
    const { rows } = await store.runNamed<Record<string, unknown>>('alerts/service_last_seen', {
      from: nowS - LOOKBACK_S,
      // The current minute included: a service that sent a moment ago is not stale.
      to: nowS + 60,
    });
    return rows
      .map((r) => ({ service: String(r.service), lastSeenS: Number(r.last_seen_s) }))
      .filter((s) => isStale(s.lastSeenS, nowS, staleAfterS))
      .sort((a, b) => b.lastSeenS - a.lastSeenS || a.service.localeCompare(b.service));
  } catch (err) {
    console.error('faultline: last data per service unavailable:', err);
    return [];
  }
});

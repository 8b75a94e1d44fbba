import { ERROR_CLASSES } from '@faultline/instrumentation';
import type { Store } from '@faultline/sql';

/**
 * The per-service outbound counters of /metrics (CALLS_METRIC, FAILURES_METRIC in
 * prometheus-rules.ts read them), counted from the same rollups and the same first-hand rule as
 * the budget, so a Prometheus rule and the evaluator see the same calls. Counted per settled
 * minute: a minute is added once it is SETTLE_S old, because an echo is decided when the callee's
 * span arrives (first_hand_failures), which may be after the caller's. A span that arrives later
 * than that for a minute already counted is in the dashboard, not in these counters. Counters
 * start at zero when the process starts, as Prometheus counters do (rate() handles the reset).
 */
export const OUTBOUND_SETTLE_S = 120;

/** Services beyond this many get service="other": span data is hostile and labels must stay bounded. */
export const MAX_METRIC_SERVICES = 500;
const OTHER = 'other';
// Envelope sources are short lowercase words (http, db, sdk, rpc, network, messaging …).
const SOURCE_RE = /^[a-z][a-z0-9_.-]{0,31}$/;

export interface OutboundSeries {
  calls: Map<string, number>;
  /** key: service \0 class \0 source \0 first_hand */
  failures: Map<string, number>;
}

export interface OutboundCounters {
  /** Adds the minutes settled since the last call (the first call only sets the start). */
  advance(): Promise<void>;
  series(): OutboundSeries;
  /** Epoch seconds up to which minutes are counted (null before the first advance). */
  countedUntilS(): number | null;
}

type Row = Record<string, unknown>;

export function createOutboundCounters(o: {
  store: Store;
  now?: () => number;
  settleS?: number;
  maxServices?: number;
}): OutboundCounters {
  const now = o.now ?? Date.now;
  const settleS = o.settleS ?? OUTBOUND_SETTLE_S;
  const maxServices = o.maxServices ?? MAX_METRIC_SERVICES;
  const calls = new Map<string, number>();
  const failures = new Map<string, number>();
  // A service keeps the label it got first, so a series never moves between names.
  const admitted = new Set<string>();
  let cursorS: number | null = null;

  const edge = () => Math.floor((now() / 1000 - settleS) / 60) * 60;
  const serviceLabel = (s: string) => {
    if (admitted.has(s)) return s;
    if (admitted.size >= maxServices) return OTHER;
    admitted.add(s);
    return s;
  };
  const classLabel = (c: string) => ((ERROR_CLASSES as readonly string[]).includes(c) ? c : '');
  const sourceLabel = (s: string) => (s === '' || SOURCE_RE.test(s) ? s : OTHER);
  const add = (m: Map<string, number>, key: string, n: number) => m.set(key, (m.get(key) ?? 0) + n);

  return {
    async advance() {
      const toS = edge();
      if (cursorS === null) {
        cursorS = toS;
        return;
      }
      if (toS <= cursorS) return;
      const { rows } = await o.store.runNamed<Row>('alerts/outbound_counts', { from: cursorS, to: toS });
      // all − first-hand = the echoes, per (service, class, source).
      const firstHand = new Map<string, number>();
      const all = new Map<string, number>();
      const order: string[] = [];
      for (const r of rows) {
        const service = String(r.service);
        const n = Number(r.n) || 0;
        if (r.kind === 'calls') {
          add(calls, serviceLabel(service), n);
          continue;
        }
        const key = `${service}\0${String(r.class)}\0${String(r.source)}`;
        if (!all.has(key) && !firstHand.has(key)) order.push(key);
        add(r.kind === 'first_hand' ? firstHand : all, key, n);
      }
      for (const key of order) {
        const [service = '', cls = '', source = ''] = key.split('\0');
        const labels = `${serviceLabel(service)}\0${classLabel(cls)}\0${sourceLabel(source)}`;
        const fh = firstHand.get(key) ?? 0;
        if (fh > 0) add(failures, `${labels}\0true`, fh);
        const echoes = Math.max(0, (all.get(key) ?? 0) - fh);
        if (echoes > 0) add(failures, `${labels}\0false`, echoes);
      }
      cursorS = toS;
    },
    series: () => ({ calls, failures }),
    countedUntilS: () => cursorS,
  };
}

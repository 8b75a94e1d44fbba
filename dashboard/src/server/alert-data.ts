import type { AlertConfig, BurnBucket, BurnPoint } from '@faultline/collector';
import { cache } from 'react';
import { bucketFor } from '../lib/time-range';
import { collectorModule } from './collector-module';
import { idStr, num, str } from './run-panel-query';
import { getStore } from './store';

export interface AlertState {
  key: string;
  alertname: string;
  service: string;
  severity: string;
  class: string;
  state: string;
  startedMs: number;
  atMs: number;
}

export interface AlertTransition extends AlertState {
  burnLong: number;
  burnShort: number;
  summary: string;
}

export interface AlertDelivery {
  key: string;
  atMs: number;
  receiver: string;
  state: string;
  ok: boolean;
  attempts: number;
  status: string;
  error: string;
}

/** Rows one Alerts page shows of each history, newest first. */
export const ALERT_HISTORY_ROWS = 200;

type Row = Record<string, unknown>;

function state(r: Row): AlertState {
  return {
    key: idStr(r.alert_key),
    alertname: str(r.alertname),
    service: str(r.service),
    severity: str(r.severity),
    class: str(r.class),
    state: str(r.state),
    startedMs: num(r.started_ms),
    atMs: num(r.at_ms),
  };
}

/**
 * Every alert's latest transition (the evaluator's own state query): firing now is state = firing.
 * Once per render: the firing, stale and burn panels all read it.
 */
export const loadAlertStates = cache(async (): Promise<AlertState[]> => {
  const store = await getStore();
  const { rows } = await store.runNamed<Row>('alerts/alert_states', {});
  return rows.map(state);
});

/**
 * Services with an alert firing now and the most severe of them, for the Overview's mark. The
 * Overview must render whatever the alert state holds, so a failing read marks nothing.
 */
export async function loadFiringByService(): Promise<Map<string, string>> {
  const firing = new Map<string, string>();
  try {
    for (const a of await loadAlertStates()) {
      if (a.state !== 'firing') continue;
      if (firing.get(a.service) !== 'page') firing.set(a.service, a.severity);
    }
  } catch {
    // No alert table yet (a server migrated by an older version): nothing is marked.
  }
  return firing;
}

export async function loadAlertHistory(): Promise<AlertTransition[]> {
  const store = await getStore();
  const { rows } = await store.runNamed<Row>('alerts/alert_history', { limit: ALERT_HISTORY_ROWS });
  return rows.map((r) => ({
    ...state(r),
    burnLong: num(r.burn_long),
    burnShort: num(r.burn_short),
    summary: str(r.summary),
  }));
}

export async function loadAlertDeliveries(): Promise<AlertDelivery[]> {
  const store = await getStore();
  const { rows } = await store.runNamed<Row>('alerts/alert_deliveries', { limit: ALERT_HISTORY_ROWS });
  return rows.map((r) => ({
    key: idStr(r.alert_key),
    atMs: num(r.at_ms),
    receiver: str(r.receiver),
    state: str(r.state),
    ok: r.ok === true || r.ok === 1 || r.ok === 'true',
    attempts: num(r.attempts),
    status: str(r.status),
    error: str(r.error),
  }));
}

/** The alert settings this process reads (the same env and rules file the evaluator reads), or why they are invalid. */
export async function loadAlertConfig(): Promise<
  { config: AlertConfig; error: null } | { config: null; error: string }
> {
  const { resolveAlertConfig } = await collectorModule();
  try {
    return { config: resolveAlertConfig(process.env), error: null };
  } catch (err) {
    return { config: null, error: (err as Error).message };
  }
}

/** With no range picked, the burn chart looks back this far and starts at the first data in it. */
export const BURN_CHART_HOURS = 6;
/** The rolling windows drawn (the page rules' windows that fit the chart). */
export const BURN_CHART_WINDOWS: Record<string, number> = { '5m': 300, '1h': 3600 };
const LONGEST_DRAWN_S = Math.max(...Object.values(BURN_CHART_WINDOWS));

export interface BurnChart {
  points: BurnPoint[];
  /** The chart's time axis, unix seconds: the range picked, or the first data to now. */
  fromS: number;
  toS: number;
  bucketS: number;
  /** The rolling windows drawn: those at least one bucket long. */
  windows: string[];
}

/**
 * One service's burn rate, counted as the budget and the evaluator count it, over `range` (a zoom)
 * or, without one, from its first data of the last BURN_CHART_HOURS to now: four minutes of data
 * fill the chart instead of sitting at the right edge of six hours. Read from a window early so
 * the 1 h line is whole at the chart's start.
 */
export async function loadBurnSeries(
  service: string,
  config: AlertConfig,
  range: { fromS: number; toS: number } | null,
  nowS: number,
): Promise<BurnChart> {
  const { burnSeries } = await collectorModule();
  const store = await getStore();
  const bucketS = range ? Math.max(60, bucketFor(range.toS - range.fromS)) : 60;
  const toS = range ? Math.ceil(range.toS / bucketS) * bucketS : Math.floor(nowS / 60) * 60 + 60;
  const chartFromS = range ? Math.floor(range.fromS / bucketS) * bucketS : toS - BURN_CHART_HOURS * 3600;
  const fromS = chartFromS - Math.ceil(LONGEST_DRAWN_S / bucketS) * bucketS;
  const { rows } = await store.runNamed<Row>('alerts/burn_series', {
    from: fromS,
    to: toS,
    service,
    bucket_s: bucketS,
  });
  const buckets = new Map<number, BurnBucket>();
  for (let s = fromS; s < toS; s += bucketS) buckets.set(s, { startS: s, calls: 0, failuresByClass: {} });
  for (const r of rows) {
    const b = buckets.get(num(r.bucket_s));
    if (!b) continue;
    if (r.kind === 'calls') b.calls += num(r.n);
    else b.failuresByClass[str(r.class)] = (b.failuresByClass[str(r.class)] ?? 0) + num(r.n);
  }
  const windows = Object.entries(BURN_CHART_WINDOWS).filter(([, w]) => w >= bucketS);
  const all = burnSeries([...buckets.values()], {
    slo: config.sloByService[service] ?? config.slo,
    callerFaults: config.callerFaults,
    bucketS,
    windowsS: Object.fromEntries(windows),
  });
  const firstData = range
    ? chartFromS
    : all.find((p) => p.startS >= chartFromS && (buckets.get(p.startS)?.calls ?? 0) > 0)?.startS;
  const startS = firstData ?? toS - bucketS;
  return {
    points: all.filter((p) => p.startS >= startS),
    fromS: startS,
    toS,
    bucketS,
    windows: windows.map(([w]) => w),
  };
}

import type { AlertConfig, BurnBucket, BurnPoint } from '@faultline/collector';
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

/** Every alert's latest transition (the evaluator's own state query): firing now is state = firing. */
export async function loadAlertStates(): Promise<AlertState[]> {
  const store = await getStore();
  const { rows } = await store.runNamed<Row>('alerts/alert_states', {});
  return rows.map(state);
}

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

/** The burn-rate chart's span and resolution: 6 h in 5-minute buckets, read an hour early so the 1 h line is whole. */
export const BURN_CHART_HOURS = 6;
export const BURN_CHART_BUCKET_S = 300;
/** The rolling windows drawn (the page rules' windows that fit the chart). */
export const BURN_CHART_WINDOWS: Record<string, number> = { '5m': 300, '1h': 3600 };

/** One service's burn rate over the last BURN_CHART_HOURS, counted as the budget and the evaluator count it. */
export async function loadBurnSeries(
  service: string,
  config: AlertConfig,
  nowS: number,
): Promise<BurnPoint[]> {
  const { burnSeries } = await collectorModule();
  const store = await getStore();
  const toS = Math.floor(nowS / BURN_CHART_BUCKET_S) * BURN_CHART_BUCKET_S + BURN_CHART_BUCKET_S;
  const chartFromS = toS - BURN_CHART_HOURS * 3600;
  const fromS = chartFromS - Math.max(...Object.values(BURN_CHART_WINDOWS));
  const { rows } = await store.runNamed<Row>('alerts/burn_series', {
    from: fromS,
    to: toS,
    service,
    bucket_s: BURN_CHART_BUCKET_S,
  });
  const buckets = new Map<number, BurnBucket>();
  for (let s = fromS; s < toS; s += BURN_CHART_BUCKET_S)
    buckets.set(s, { startS: s, calls: 0, failuresByClass: {} });
  for (const r of rows) {
    const b = buckets.get(num(r.bucket_s));
    if (!b) continue;
    if (r.kind === 'calls') b.calls += num(r.n);
    else b.failuresByClass[str(r.class)] = (b.failuresByClass[str(r.class)] ?? 0) + num(r.n);
  }
  return burnSeries([...buckets.values()], {
    slo: config.sloByService[service] ?? config.slo,
    callerFaults: config.callerFaults,
    bucketS: BURN_CHART_BUCKET_S,
    windowsS: BURN_CHART_WINDOWS,
  }).filter((p) => p.startS >= chartFromS);
}

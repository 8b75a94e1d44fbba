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

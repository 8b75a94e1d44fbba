import type { BurnWindow } from '../budget/index.js';
import type { Severity } from './burn-rules.js';

/** What the long window burned, beside the burn itself. */
export interface AlertBreakdown {
  classes: { class: string; failures: number; share: number }[];
  topSource: string | null;
  topCode: string | null;
  /** The class × source × code with the most failures, e.g. rate_limit / sdk / ThrottlingException. */
  top: { class: string; source: string; code: string; failures: number } | null;
  /** The dependency most of those failures called (failures.dependency), where one was named. */
  topDependency?: { name: string; failures: number } | null;
}

/** One alert as the receivers get it. */
export interface AlertNotice {
  key: string;
  alertname: string;
  service: string;
  severity: Severity;
  /** The dominant class when the alert fired: a label, so it stays fixed while the alert fires. */
  class: string;
  status: 'firing' | 'resolved';
  startsAtMs: number;
  /** Resolve time, or (firing) when Alertmanager may drop it if it is not re-sent. */
  endsAtMs: number;
  window: { long: BurnWindow; short: BurnWindow; factor: number } | null;
  burnLong: number;
  burnShort: number;
  burn: Partial<Record<BurnWindow, number | null>>;
  breakdown: AlertBreakdown;
  /** Extra Alertmanager labels of a class rule (class, source, code): part of its identity. */
  labels?: Record<string, string>;
  /** A class rule's measured value against its threshold (burn-rate alerts carry `burn`). */
  measure?: { value: number; threshold: number; unit: string };
  summary: string;
  dashboardUrl: string;
  /**
   * Set on the notice that resolves an alert because its service stopped sending: the alert is
   * stale (recorded so), and receivers get a resolve with `reason`.
   */
  stale?: boolean;
  /** Why it resolved when not because the rule stopped holding, e.g. "no data since 2026-03-01T18:28:00.000Z". */
  reason?: string;
}

/** The outcome of delivering one notice to one receiver. */
export interface DeliveryOutcome {
  receiver: string;
  key: string;
  /** `silenced`: not sent, a silence matched (ok, 0 attempts; `error` names the silence). */
  status: AlertNotice['status'] | 'silenced';
  ok: boolean;
  attempts: number;
  httpStatus: number;
  error: string;
  atMs: number;
}

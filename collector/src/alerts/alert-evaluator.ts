import type { Store } from '@faultline/sql';
import { insertBatch } from '@faultline/sql';
import type { Registry } from 'prom-client';
import type { AlertConfig } from './alert-config.js';
import { type AlertDelivery, createAlertDelivery } from './alert-delivery.js';
import { alertMetrics, type EvaluationStats } from './alert-metrics.js';
import type { AlertBreakdown, AlertNotice, DeliveryOutcome } from './alert-types.js';
import { evaluateClassRules, labelsFromKey } from './class-rules.js';
import { type BurnFinding, windowSeconds } from './judge-burn.js';
import { createOutboundCounters } from './outbound-counters.js';
import { judgeServices, type ServiceVerdict } from './service-verdicts.js';
import { createSilenceBook, type Silence, type SilenceBook } from './silence-book.js';
import { createSilenceGate } from './silence-gate.js';
import { staleReason } from './staleness.js';

type Row = Record<string, unknown>;

export interface AlertEvaluatorOptions {
  store: Store;
  config: AlertConfig;
  /** Epoch ms; tests pass a clock they control. */
  now?: () => number;
  delivery?: AlertDelivery;
  /** Retry timing of the receivers (tests shorten it). */
  post?: import('./post-json.js').PostOptions;
  /** Seconds a minute waits before the outbound counters add it (default OUTBOUND_SETTLE_S). */
  settleS?: number;
}

interface StoredState {
  state: 'firing' | 'resolved' | 'stale';
  alertname: string;
  service: string;
  severity: string;
  class: string;
  startedMs: number;
}

export interface AlertEvaluator {
  /** One evaluation at now(): the notices it produced (transitions and re-sends). */
  evaluate(): Promise<AlertNotice[]>;
  /** Evaluates every config.intervalS seconds until stop(). */
  start(): void;
  stop(): Promise<void>;
  /** Waits for queued deliveries. */
  idle(): Promise<void>;
  firing(): AlertNotice[];
  /** This role's part of /metrics: outbound call/failure counters, firing alerts, evaluator health. */
  metrics(): Promise<string>;
  /** The registry behind metrics(), read live at each scrape; without the Node process metrics. */
  readonly registry: Registry;
  /** For /healthz: how the evaluations have gone and how many alerts fire. */
  health(): EvaluationStats & { firing: number };
  /**
   * Every service as the last evaluation judged it (each burn window judged or "not enough traffic
   * to judge", each rule, staleness and last data), and when; null before the first evaluation.
   */
  services(): { atMs: number; services: ServiceVerdict[] } | null;
  /** The silences this evaluator honours: the alerts API creates, lists and expires them here. */
  readonly silences: SilenceBook;
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

export function createAlertEvaluator(o: AlertEvaluatorOptions): AlertEvaluator {
  const { store, config } = o;
  const now = o.now ?? Date.now;
  const delivery =
    o.delivery ??
    createAlertDelivery({
      alertmanagerUrl: config.alertmanagerUrl,
      webhookUrl: config.webhookUrl,
      webhookFormat: config.webhookFormat,
      pagerdutyRoutingKey: config.pagerdutyRoutingKey,
      post: o.post,
      now,
      onOutcome: recordDelivery,
    });
  const silences = createSilenceBook({ store, alertmanagerUrl: config.alertmanagerUrl, now });
  const gate = createSilenceGate({ store, record: recordDelivery });
  let judged: { atMs: number; services: ServiceVerdict[] } | null = null;
  let states: Map<string, StoredState> | null = null;
  const current = new Map<string, AlertNotice>();
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  const counters = createOutboundCounters({ store, now, settleS: o.settleS });
  const stats: EvaluationStats = { ok: 0, failed: 0, lastDurationS: null, lastSuccessS: null };
  const registry = alertMetrics({
    series: () => counters.series(),
    countedUntilS: () => counters.countedUntilS(),
    firing: () => current.values(),
    stats,
  });

  async function recordDelivery(d: DeliveryOutcome): Promise<void> {
    const row = {
      at: seconds(d.atMs),
      alert_key: d.key,
      receiver: d.receiver,
      state: d.status,
      ok: d.ok,
      attempts: d.attempts,
      status: d.httpStatus,
      error: d.error.slice(0, 2000),
    };
    await insertBatch(store.client, `${JSON.stringify(row)}\n`, { table: 'alert_deliveries' });
  }

  async function loadStates(): Promise<Map<string, StoredState>> {
    const { rows } = await store.runNamed<Row>('alerts/alert_states');
    const m = new Map<string, StoredState>();
    for (const r of rows)
      m.set(String(r.alert_key), {
        state: r.state === 'firing' ? 'firing' : r.state === 'stale' ? 'stale' : 'resolved',
        alertname: String(r.alertname),
        service: String(r.service),
        severity: String(r.severity),
        class: String(r.class),
        startedMs: Number(r.started_ms),
      });
    return m;
  }

  async function breakdown(service: string, fromS: number, toS: number): Promise<AlertBreakdown> {
    const { rows } = await store.runNamed<Row>('alerts/alert_breakdown', { service, from: fromS, to: toS });
    // Rows are per class × source × code × dependency: the top code sums over its dependencies.
    const byCode = new Map<string, { class: string; source: string; code: string; failures: number }>();
    const byDependency = new Map<string, number>();
    for (const r of rows) {
      const n = Number(r.failures);
      const key = `${r.class}\0${r.source}\0${r.code}`;
      const c = byCode.get(key) ?? {
        class: String(r.class),
        source: String(r.source),
        code: String(r.code),
        failures: 0,
      };
      c.failures += n;
      byCode.set(key, c);
      const dep = String(r.dependency ?? '');
      if (dep !== '') byDependency.set(dep, (byDependency.get(dep) ?? 0) + n);
    }
    // Ties keep the query's order (failures, then class, source, code): the first maximum wins.
    let top: AlertBreakdown['top'] = null;
    for (const c of byCode.values()) if (top === null || c.failures > top.failures) top = c;
    let dep: [string, number] | null = null;
    for (const d of byDependency) if (dep === null || d[1] > dep[1]) dep = d;
    return {
      classes: [],
      topSource: top?.source ?? null,
      topCode: top?.code ?? null,
      top,
      topDependency: dep ? { name: dep[0], failures: dep[1] } : null,
    };
  }

  /** How long Alertmanager keeps a firing alert that is not re-sent. */
  function holdMs(): number {
    return Math.max(4 * config.intervalS, 180) * 1000;
  }

  function link(service: string, fromS: number, toS: number, path = '/'): string {
    const q = new URLSearchParams({ service, from: String(fromS), to: String(toS), sli: config.sli });
    return `${config.dashboardUrl}${path}?${q}`;
  }

  async function notice(
    f: BurnFinding,
    nowMs: number,
    started: StoredState | undefined,
  ): Promise<AlertNotice> {
    const toS = Math.floor(nowMs / 1000);
    const fromS = toS - windowSeconds(f.rule.long);
    const b = await breakdown(f.service, fromS, toS);
    b.classes = f.classes;
    const dominant = started?.class ?? f.classes[0]?.class ?? 'unclassified';
    const share = f.classes[0]
      ? `${Math.round(f.classes[0].share * 100)}% ${f.classes[0].class}`
      : 'no class';
    const from = b.top && b.top.class === f.classes[0]?.class ? ` from ${b.top.source} ${b.top.code}` : '';
    const calling = b.topDependency ? ` (${b.topDependency.name})` : '';
    return {
      key: f.key,
      alertname: f.alertname,
      service: f.service,
      severity: f.severity,
      class: dominant,
      status: 'firing',
      startsAtMs: started?.startedMs ?? nowMs,
      endsAtMs: nowMs + holdMs(),
      window: { long: f.rule.long, short: f.rule.short, factor: f.rule.factor },
      burnLong: f.burnLong,
      burnShort: f.burnShort,
      burn: f.burn,
      breakdown: b,
      summary: `${f.service}: ${f.burnLong.toFixed(1)}× burn over ${f.rule.long} (${f.burnShort.toFixed(1)}× over ${f.rule.short}), ${share}${from}${calling}`,
      dashboardUrl: link(f.service, fromS, toS),
    };
  }

  async function recordTransition(n: AlertNotice, atMs: number): Promise<void> {
    const row = {
      at: seconds(atMs),
      alert_key: n.key,
      alertname: n.alertname,
      service: n.service,
      severity: n.severity,
      class: n.class,
      state: n.stale ? 'stale' : n.status,
      started_at: seconds(n.startsAtMs),
      burn_long: n.burnLong,
      burn_short: n.burnShort,
      summary: n.summary,
      breakdown: JSON.stringify(n.breakdown),
    };
    await insertBatch(store.client, `${JSON.stringify(row)}\n`, { table: 'alert_events' });
  }

  /** One evaluation, counted for /metrics; the outbound counters advance beside it. */
  async function evaluate(): Promise<AlertNotice[]> {
    const t0 = performance.now();
    try {
      const out = await evaluateOnce();
      stats.ok++;
      stats.lastSuccessS = Math.floor(now() / 1000);
      return out;
    } catch (err) {
      stats.failed++;
      throw err;
    } finally {
      stats.lastDurationS = Number(((performance.now() - t0) / 1000).toFixed(3));
      // The counters are their own concern: a failed read leaves their cursor, so the next
      // evaluation counts the same minutes again; it never fails an evaluation.
      await counters
        .advance()
        .catch((err) =>
          console.error(`faultline: outbound counters not advanced: ${(err as Error)?.message ?? err}`),
        );
    }
  }

  async function evaluateOnce(): Promise<AlertNotice[]> {
    if (!states) {
      states = await loadStates();
      await gate.load(new Set([...states].filter(([, s]) => s.state === 'firing').map(([k]) => k)));
    }
    const nowMs = now();
    const toS = Math.floor(nowMs / 1000);
    const judgement = await judgeServices(store, config, nowMs);
    judged = { atMs: nowMs, services: judgement.services };
    // A stopped service's alerts are stale, not judged on the data it sent before it stopped.
    const stale = new Map<string, number>();
    for (const v of judgement.services)
      if (v.stale && v.lastSeenS !== null) stale.set(v.service, v.lastSeenS);
    const findings = new Map<string, BurnFinding>(judgement.findings.map((f) => [f.key, f]));
    const verdicts = new Map(judgement.services.map((v) => [v.service, v]));
    /**
     * The fewest events a burn alert's rules need, when it stops holding because its windows hold
     * too few events rather than because the burn eased; else null.
     */
    const thin = (s: StoredState): number | null => {
      const rules = verdicts
        .get(s.service)
        ?.rules.filter((r) => r.alertname === s.alertname && r.severity === s.severity);
      return rules?.length && rules.every((r) => r.verdict === 'insufficient_traffic')
        ? Math.min(...rules.map((r) => r.minEvents))
        : null;
    };
    const fired: AlertNotice[] = [];
    const resolved: AlertNotice[] = [];
    const resend: AlertNotice[] = [];
    const holding = new Set<string>();
    for (const f of findings.values()) {
      const prior = states.get(f.key);
      const wasFiring = prior?.state === 'firing';
      const n = await notice(f, nowMs, wasFiring ? prior : undefined);
      holding.add(n.key);
      current.set(f.key, n);
      if (wasFiring) resend.push(n);
      else fired.push(n);
    }
    // Class-aware rules (class × source rate, new failure code) and agents' wrong next actions:
    // same state, same delivery.
    const classResult = await evaluateClassRules([...config.classRules, ...config.agentRules], {
      store,
      nowMs,
      holdMs: holdMs(),
      link,
    });
    for (const { rule, error } of classResult.failed) {
      console.error(`faultline: alert rule ${rule.kind} ${rule.alertname} failed: ${error}`);
      // A rule that could not be judged keeps its alerts as they were (firing stays firing).
      for (const [key, s] of states)
        if (
          s.state === 'firing' &&
          !stale.has(s.service) &&
          s.alertname === rule.alertname &&
          s.severity === rule.severity &&
          (rule.service === null || s.service === rule.service)
        ) {
          holding.add(key);
          const last = current.get(key);
          if (last) resend.push({ ...last, endsAtMs: nowMs + holdMs() });
        }
    }
    for (const c of classResult.notices) {
      if (holding.has(c.key) || stale.has(c.service)) continue;
      const prior = states.get(c.key);
      const wasFiring = prior?.state === 'firing';
      // The class label stays what it was when the alert fired (it is part of its identity).
      const n = wasFiring && prior ? { ...c, startsAtMs: prior.startedMs, class: prior.class } : c;
      holding.add(n.key);
      current.set(n.key, n);
      if (wasFiring) resend.push(n);
      else fired.push(n);
    }
    for (const [key, s] of states) {
      if (s.state !== 'firing' || holding.has(key)) continue;
      const last = current.get(key);
      const labels = labelsFromKey(key);
      const lastSeenS = stale.get(s.service);
      const reason = lastSeenS === undefined ? undefined : staleReason(lastSeenS);
      const n: AlertNotice = {
        ...(last ?? {
          key,
          alertname: s.alertname,
          service: s.service,
          severity: s.severity as AlertNotice['severity'],
          class: s.class,
          startsAtMs: s.startedMs,
          window: null,
          burnLong: 0,
          burnShort: 0,
          burn: {},
          breakdown: { classes: [], topSource: null, topCode: null, top: null },
          labels,
          dashboardUrl: link(s.service, Math.floor(s.startedMs / 1000), toS),
        }),
        status: 'resolved',
        endsAtMs: nowMs,
        summary: reason
          ? `${s.service}: stale, ${reason}; ${s.alertname} (${s.severity}) is no longer judged on old data`
          : Object.keys(labels).length > 0
            ? `${s.service}: resolved, ${s.alertname} (${Object.values(labels).join(' ')}) no longer holds`
            : thin(s) !== null
              ? `${s.service}: resolved, not enough traffic to judge: each ${s.severity} rule has a window with fewer than ${thin(s)} events`
              : `${s.service}: resolved, the budget burns below the ${s.severity} thresholds again`,
        ...(reason ? { stale: true, reason } : {}),
      };
      resolved.push(n);
      current.delete(key);
    }
    // Read before the state is recorded: a failing read fails this evaluation whole, and the next
    // one makes the same transitions.
    const active = await readSilences();
    // State first, then delivery: a crash between the two re-sends at most, never re-pages twice.
    for (const n of [...fired, ...resolved]) {
      await recordTransition(n, nowMs);
      states.set(n.key, {
        state: n.stale ? 'stale' : n.status,
        alertname: n.alertname,
        service: n.service,
        severity: n.severity,
        class: n.class,
        startedMs: n.startsAtMs,
      });
    }
    delivery.toAlertmanager(gate.alertmanager([...fired, ...resend, ...resolved], active));
    if (config.webhookUrl)
      delivery.toWebhook(
        await gate.webhook({ fired, resolved, firing: [...current.values()], silences: active, nowMs }),
      );
    return [...fired, ...resend, ...resolved];
  }

  /** The silences in force now, after putting Alertmanager in step with them (never fatal). */
  async function readSilences(): Promise<Silence[]> {
    await silences
      .syncAlertmanager()
      .catch((err) =>
        console.error(
          `faultline: alert silences not mirrored to Alertmanager: ${(err as Error)?.message ?? err}`,
        ),
      );
    return (await silences.list()).filter((s) => s.status === 'active');
  }

  function schedule(): void {
    timer = setTimeout(() => {
      running = evaluate()
        .catch((err) =>
          console.error(`faultline: alert evaluation failed: ${(err as Error)?.message ?? err}`),
        )
        .finally(() => {
          running = null;
          if (timer) schedule();
        });
    }, config.intervalS * 1000);
    timer.unref?.();
  }

  return {
    evaluate,
    start() {
      if (!timer) schedule();
    },
    async stop() {
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
      await delivery.idle();
    },
    idle: () => delivery.idle(),
    firing: () => [...current.values()],
    health: () => ({ ...stats, firing: current.size }),
    services: () => judged,
    silences,
    metrics: () => registry.metrics(),
    registry,
  };
}

import { type AgentActionRule, agentWrongActions } from './agent-rules.js';
import { classAlertKey } from './alert-keys.js';
import type { AlertNotice } from './alert-types.js';
import type { Severity } from './burn-rules.js';
import type { ClassRuleContext } from './rule-context.js';

export { classAlertKey, labelsFromKey } from './alert-keys.js';
export type { ClassRuleContext } from './rule-context.js';

export const CLASS_RATE_ALERT_NAME = 'FailureClassRate';
export const NEW_CODE_ALERT_NAME = 'NewFailureCode';

/** Failures of one class from one source above `perMinute`, averaged over the last complete minutes. */
export interface ClassRateRule {
  kind: 'class_rate';
  alertname: string;
  severity: Severity;
  class: string;
  source: string;
  perMinute: number;
  windowMinutes: number;
  /** null: every service. */
  service: string | null;
}

/** A failure code (source × class × code) first seen on a service in the last `windowMinutes`, absent the `baselineDays` before. */
export interface NewCodeRule {
  kind: 'new_code';
  alertname: string;
  severity: Severity;
  baselineDays: number;
  windowMinutes: number;
  service: string | null;
}

/** The rules judged beside the burn rules, each over its own query: same state, same delivery. */
export type ClassRule = ClassRateRule | NewCodeRule | AgentActionRule;

type Row = Record<string, unknown>;

function base(
  rule: ClassRateRule | NewCodeRule,
  service: string,
  labels: Record<string, string>,
  ctx: ClassRuleContext,
): Pick<
  AlertNotice,
  | 'key'
  | 'alertname'
  | 'service'
  | 'severity'
  | 'status'
  | 'labels'
  | 'startsAtMs'
  | 'endsAtMs'
  | 'window'
  | 'burnLong'
  | 'burnShort'
  | 'burn'
> {
  return {
    key: classAlertKey(rule.alertname, service, rule.severity, labels),
    alertname: rule.alertname,
    service,
    severity: rule.severity,
    status: 'firing',
    labels,
    startsAtMs: ctx.nowMs,
    endsAtMs: ctx.nowMs + ctx.holdMs,
    window: null,
    burnLong: 0,
    burnShort: 0,
    burn: {},
  };
}

async function classRate(rule: ClassRateRule, ctx: ClassRuleContext): Promise<AlertNotice[]> {
  // Complete minutes only: the current minute is still filling.
  const toS = Math.floor(ctx.nowMs / 60_000) * 60;
  const fromS = toS - rule.windowMinutes * 60;
  const { rows } = await ctx.store.runNamed<Row>('alerts/alert_class_rate', {
    from: fromS,
    to: toS,
    class: rule.class,
    source: rule.source,
    service: rule.service ?? '',
  });
  const byService = new Map<string, { failures: number; topCode: string; topFailures: number }>();
  for (const r of rows) {
    const s = String(r.service);
    const n = Number(r.failures);
    const cur = byService.get(s) ?? { failures: 0, topCode: String(r.code), topFailures: n };
    cur.failures += n;
    byService.set(s, cur);
  }
  const out: AlertNotice[] = [];
  for (const [service, c] of byService) {
    const perMinute = c.failures / rule.windowMinutes;
    if (perMinute <= rule.perMinute) continue;
    const labels = { class: rule.class, source: rule.source };
    const rate = Number.isInteger(perMinute) ? String(perMinute) : perMinute.toFixed(1);
    out.push({
      ...base(rule, service, labels, ctx),
      class: rule.class,
      measure: { value: perMinute, threshold: rule.perMinute, unit: 'failures/min' },
      breakdown: {
        classes: [{ class: rule.class, failures: c.failures, share: 1 }],
        topSource: rule.source,
        topCode: c.topCode,
        top: { class: rule.class, source: rule.source, code: c.topCode, failures: c.topFailures },
      },
      summary: `${service}: ${rate} ${rule.class} failures/min from ${rule.source} over ${rule.windowMinutes}m (above ${rule.perMinute}/min), top code ${c.topCode}`,
      dashboardUrl: ctx.link(service, fromS, toS),
    });
  }
  return out;
}

async function newCodes(rule: NewCodeRule, ctx: ClassRuleContext): Promise<AlertNotice[]> {
  const toS = Math.floor(ctx.nowMs / 1000);
  const fromS = Math.floor(ctx.nowMs / 60_000) * 60 - rule.windowMinutes * 60;
  const { rows } = await ctx.store.runNamed<Row>('alerts/alert_new_codes', {
    baseline_from: fromS - rule.baselineDays * 86_400,
    from: fromS,
    to: toS,
    service: rule.service ?? '',
  });
  return rows.map((r) => {
    const service = String(r.service);
    const cls = String(r.class);
    const source = String(r.source);
    const code = String(r.code);
    const failures = Number(r.failures);
    const firstS = Number(r.first_minute_s);
    return {
      ...base(rule, service, { class: cls, source, code }, ctx),
      class: cls,
      measure: { value: failures, threshold: 0, unit: 'failures' },
      breakdown: {
        classes: [{ class: cls, failures, share: 1 }],
        topSource: source,
        topCode: code,
        top: { class: cls, source, code, failures },
      },
      summary: `${service}: new failure code ${cls} from ${source} ${code} (first seen ${new Date(firstS * 1000).toISOString()}, ${failures} failures; not seen in the prior ${rule.baselineDays} d)`,
      dashboardUrl: ctx.link(service, firstS, toS),
    };
  });
}

/**
 * The class rules' alerts that hold at ctx.nowMs, as firing notices (the evaluator keeps the state),
 * and the rules whose query failed: their alerts are neither fired nor resolved this time.
 */
export async function evaluateClassRules(
  rules: readonly ClassRule[],
  ctx: ClassRuleContext,
): Promise<{ notices: AlertNotice[]; failed: { rule: ClassRule; error: string }[] }> {
  const notices: AlertNotice[] = [];
  const failed: { rule: ClassRule; error: string }[] = [];
  for (const rule of rules) {
    try {
      notices.push(
        ...(await (rule.kind === 'class_rate'
          ? classRate(rule, ctx)
          : rule.kind === 'new_code'
            ? newCodes(rule, ctx)
            : agentWrongActions(rule, ctx))),
      );
    } catch (err) {
      failed.push({ rule, error: (err as Error)?.message ?? String(err) });
    }
  }
  return { notices, failed };
}

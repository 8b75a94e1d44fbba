import type { BurnWindow } from '../budget/index.js';
import { classAlertKey } from './alert-keys.js';
import type { AlertNotice } from './alert-types.js';
import type { Severity } from './burn-rules.js';
import { windowSeconds } from './judge-burn.js';
import type { ClassRuleContext } from './rule-context.js';

export const AGENT_ALERT_NAME = 'AgentWrongActions';

/**
 * Agents' wrong next actions after failed tool calls (agent_actions: a repeat of a refused call, a
 * retry before retry_after, giving up on a transient failure…), burn-style: per service and agent,
 * wrong / judged next actions over `long` and over its last `short`, against the share `1 - target`
 * the objective allows; fires while both windows burn at `factor` or more and each holds at least
 * `minEvents` judged actions.
 */
export interface AgentActionRule {
  kind: 'agent_wrong_actions';
  alertname: string;
  severity: Severity;
  /** The share of judged next actions that should be right, e.g. 0.9 (one in ten may be wrong). */
  target: number;
  long: BurnWindow;
  short: BurnWindow;
  /** The burn both windows must reach: 2 with target 0.9 fires above one wrong action in five. */
  factor: number;
  /** Judged next actions each window must hold before the rule judges it. */
  minEvents: number;
  /** null: every service. */
  service: string | null;
}

/**
 * The rule that applies unless FAULTLINE_ALERT_RULES lists `kind: agent_wrong_actions` rules of its
 * own. An agent's failed tool calls are far fewer than a service's calls, so its event minimum is
 * its own: 10 judged actions in each window (the 5-minute one too) before it may page, enough that
 * one unlucky run cannot; at the 0.9 target a page then needs more than 2 wrong actions in 10.
 */
export const DEFAULT_AGENT_RULE: AgentActionRule = {
  kind: 'agent_wrong_actions',
  alertname: AGENT_ALERT_NAME,
  severity: 'page',
  target: 0.9,
  long: '1h',
  short: '5m',
  factor: 2,
  minEvents: 10,
  service: null,
};

type Row = Record<string, unknown>;

const share = (n: number) => `${Math.round(n * 100)}%`;

/** The dominant class of an agent's wrong actions in the window (agent_compliance_by_class). */
async function worstClass(
  ctx: ClassRuleContext,
  p: { from: number; to: number; service: string; agent: string },
): Promise<{ class: string; wrong: number } | null> {
  const { rows } = await ctx.store.runNamed<Row>('agents/agent_compliance_by_class', p);
  const top = rows.find((r) => Number(r.wrong_actions) > 0);
  return top ? { class: String(top.class), wrong: Number(top.wrong_actions) } : null;
}

/** The agents whose wrong next actions burn over the rule's factor in both windows, as firing notices. */
export async function agentWrongActions(
  rule: AgentActionRule,
  ctx: ClassRuleContext,
): Promise<AlertNotice[]> {
  const toS = Math.floor(ctx.nowMs / 1000);
  const fromS = toS - windowSeconds(rule.long);
  // Judging next actions is the costly part: only where an agent's tool failed in the window.
  const service = rule.service ?? '';
  const failed = await ctx.store.runNamed<Row>('alerts/agent_failed_tool_calls', {
    from: fromS,
    to: toS,
    service,
  });
  if (failed.rows.length === 0) return [];
  const { rows } = await ctx.store.runNamed<Row>('agents/agent_wrong_action_burn', {
    from: fromS,
    to: toS,
    short_s: windowSeconds(rule.short),
    target: rule.target,
    service,
  });
  const out: AlertNotice[] = [];
  for (const r of rows) {
    const judgedLong = Number(r.judged_long);
    const judgedShort = Number(r.judged_short);
    const burnLong = Number(r.burn_long);
    const burnShort = Number(r.burn_short);
    if (judgedLong < rule.minEvents || judgedShort < rule.minEvents) continue;
    if (burnLong < rule.factor || burnShort < rule.factor) continue;
    const burning = String(r.service);
    const agent = String(r.agent);
    const wrongLong = Number(r.wrong_long);
    const worst = await worstClass(ctx, { from: fromS, to: toS, service: burning, agent });
    const cls = worst?.class ?? 'unclassified';
    const labels = { agent };
    const allowed = 1 - rule.target;
    out.push({
      key: classAlertKey(rule.alertname, burning, rule.severity, labels),
      alertname: rule.alertname,
      service: burning,
      severity: rule.severity,
      class: cls,
      status: 'firing',
      labels,
      startsAtMs: ctx.nowMs,
      endsAtMs: ctx.nowMs + ctx.holdMs,
      window: { long: rule.long, short: rule.short, factor: rule.factor },
      burnLong,
      burnShort,
      burn: { [rule.long]: burnLong, [rule.short]: burnShort },
      measure: { value: wrongLong / judgedLong, threshold: allowed * rule.factor, unit: 'wrong actions' },
      breakdown: {
        classes: worst ? [{ class: cls, failures: worst.wrong, share: worst.wrong / wrongLong }] : [],
        topSource: 'tool',
        topCode: null,
        top: null,
      },
      summary: `${burning}: agent ${agent} took the wrong next action after ${wrongLong} of ${judgedLong} judged failed tool calls over ${rule.long} (${burnLong.toFixed(1)}× the ${share(allowed)} allowed, ${burnShort.toFixed(1)}× over ${rule.short})${worst ? `, most after ${cls}` : ''}`,
      dashboardUrl: ctx.link(burning, fromS, toS, '/agents'),
    });
  }
  return out;
}

import type { DashboardParams } from '../lib/dashboard-params';
import { idStr, namedQuery, num, str } from './run-panel-query';

/**
 * The Agents page's rows: the named queries of sql/queries/agents/ (the ones people run during
 * incident review), with the page's range and service as their typed parameters.
 */
const range = (p: DashboardParams) => ({ from: p.range.fromS, to: p.range.toS, service: p.service });

/** A fraction, or null where nothing was judged (compliance of no right or wrong action). */
const fraction = (v: unknown): number | null => (v === null || v === undefined ? null : num(v));

export interface ComplianceRow {
  class: string;
  failedCalls: number;
  right: number;
  wrong: number;
  unjudged: number;
  compliance: number | null;
  wrongKinds: string[];
}

/** Did the agents follow each class's policy (agent_compliance_by_class)? */
export async function loadCompliance(p: DashboardParams, agent: string): Promise<ComplianceRow[]> {
  const rows = await namedQuery('agents/agent_compliance_by_class', { ...range(p), agent });
  return rows.map((r) => ({
    class: str(r.class),
    failedCalls: num(r.failed_calls),
    right: num(r.right_actions),
    wrong: num(r.wrong_actions),
    unjudged: num(r.unjudged),
    compliance: fraction(r.compliance),
    wrongKinds: Array.isArray(r.wrong_kinds) ? r.wrong_kinds.map(str) : [],
  }));
}

export interface WorstPair {
  agent: string;
  model: string;
  tool: string;
  failedCalls: number;
  right: number;
  wrong: number;
  compliance: number | null;
  worstClass: string;
  exampleTraceId: string;
}

/** The agent × model × tool pairs shown; the panel says so when it is full. */
export const WORST_PAIRS_LIMIT = 20;

export async function loadWorstPairs(p: DashboardParams): Promise<WorstPair[]> {
  const rows = await namedQuery('agents/agent_worst_pairs', { ...range(p), limit: WORST_PAIRS_LIMIT });
  return rows.map((r) => ({
    agent: str(r.agent),
    model: str(r.model),
    tool: str(r.tool),
    failedCalls: num(r.failed_calls),
    right: num(r.right_actions),
    wrong: num(r.wrong_actions),
    compliance: fraction(r.compliance),
    worstClass: str(r.worst_class),
    exampleTraceId: idStr(r.example_trace_id),
  }));
}

export interface ToolClassRow {
  tool: string;
  class: string;
  failedToolCalls: number;
  firstHand: number;
  budgetShare: number;
}

/** Tools by class of failure and the budget they consumed (agent_tools_by_class). */
export async function loadToolsByClass(p: DashboardParams): Promise<ToolClassRow[]> {
  const rows = await namedQuery('agents/agent_tools_by_class', range(p));
  return rows.map((r) => ({
    tool: str(r.tool),
    class: str(r.class),
    failedToolCalls: num(r.failed_tool_calls),
    firstHand: num(r.first_hand_failures),
    budgetShare: num(r.budget_share),
  }));
}

export interface Judgement {
  atS: number;
  service: string;
  serviceId: string;
  agent: string;
  model: string;
  tool: string;
  class: string;
  code: string;
  retryAfter: number | null;
  action: string;
  nextTool: string;
  waitedS: number;
  verdict: string;
  traceId: string;
  spanId: string;
}

/** The judgements listed, newest first; the panel says so when it is full. */
export const JUDGEMENTS_LIMIT = 100;

export async function loadJudgements(
  p: DashboardParams,
  filter: { agent: string; verdict: string },
): Promise<Judgement[]> {
  const rows = await namedQuery('agents/agent_judgements', {
    ...range(p),
    ...filter,
    limit: JUDGEMENTS_LIMIT,
  });
  return rows.map((r) => ({
    atS: num(r.at_s),
    service: str(r.service),
    serviceId: idStr(r.service),
    agent: str(r.agent),
    model: str(r.model),
    tool: str(r.tool),
    class: str(r.class),
    code: str(r.code),
    retryAfter: fraction(r.retry_after),
    action: str(r.action),
    nextTool: str(r.next_tool),
    waitedS: num(r.waited_s),
    verdict: str(r.verdict),
    traceId: idStr(r.TraceId),
    spanId: idStr(r.SpanId),
  }));
}

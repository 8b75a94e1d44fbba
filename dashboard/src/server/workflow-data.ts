import { readWorkflowsSampled } from '@faultline/collector/budget';
import type { DashboardParams } from '../lib/dashboard-params';
import { type WorkflowFilters, workflowFilterQueryParams } from '../lib/workflow-selection';
import { idStr, num, panelQuery, str } from './run-panel-query';

function rangeParams(p: DashboardParams) {
  return { from: p.range.fromS, to: p.range.toS, service: p.service };
}

/**
 * The parameters of the queries that sum workflow weights: the range, the service, and whether a
 * workflow of the range may be sampled (readWorkflowsSampled, asked once per render: cache()
 * dedupes the lookup), so where none is they read no weight.
 */
async function weightedParams(p: DashboardParams) {
  return { ...rangeParams(p), sampled: await readWorkflowsSampled(panelQuery, p.range.fromS) };
}

export interface WorkflowSummary {
  workflows: number;
  failedWorkflows: number;
  steps: number;
  failedSteps: number;
  retries: number;
  avgSteps: number;
}

/**
 * workflows_summary's figures, summed from the workflows_by_steps rows (each workflow is in one
 * steps group), so the page merges the range's workflows once for both panels.
 */
export function summaryOfSteps(buckets: readonly StepsBucket[]): WorkflowSummary {
  let workflows = 0;
  let failedWorkflows = 0;
  let steps = 0;
  let failedSteps = 0;
  let retries = 0;
  for (const b of buckets) {
    workflows += b.workflows;
    failedWorkflows += b.workflows - b.succeeded;
    steps += b.steps * b.workflows;
    failedSteps += b.failedSteps;
    retries += b.retries;
  }
  return {
    workflows,
    failedWorkflows,
    steps,
    failedSteps,
    retries,
    avgSteps: workflows > 0 ? steps / workflows : 0,
  };
}

export async function loadWorkflowSummary(p: DashboardParams): Promise<WorkflowSummary> {
  return summaryOfSteps(await loadWorkflowsBySteps(p));
}

export interface StepsBucket {
  steps: number;
  workflows: number;
  succeeded: number;
  failedSteps: number;
  retries: number;
}

export async function loadWorkflowsBySteps(p: DashboardParams): Promise<StepsBucket[]> {
  // Where no workflow of the range was sampled every weight is 1: the stored workflows' count is
  // the figure, without the weights' sums (workflows_by_steps_stored).
  const { sampled, ...params } = await weightedParams(p);
  const rows = await panelQuery(sampled ? 'workflows_by_steps' : 'workflows_by_steps_stored', params);
  return rows.map((r) => ({
    steps: num(r.steps),
    workflows: num(r.workflows),
    succeeded: num(r.succeeded),
    failedSteps: num(r.total_failed_steps),
    retries: num(r.total_retries),
  }));
}

export interface FirstFailure {
  /** The first failure's fields exactly as stored ('' for a class none recorded), for links. */
  key: { class: string; service: string; source: string; code: string };
  class: string;
  service: string;
  /** The exact service name (idStr), for links; `service` is the shown text. */
  serviceId: string;
  source: string;
  code: string;
  failedWorkflows: number;
}

export async function loadFirstFailures(p: DashboardParams): Promise<FirstFailure[]> {
  const rows = await panelQuery('workflows_first_failure', await weightedParams(p));
  return rows.map((r) => ({
    key: {
      class: r.first_class === 'none recorded' ? '' : idStr(r.first_class),
      service: idStr(r.first_service),
      source: idStr(r.first_source),
      code: idStr(r.first_code),
    },
    class: str(r.first_class),
    service: str(r.first_service),
    serviceId: idStr(r.first_service),
    source: str(r.first_source),
    code: str(r.first_code),
    failedWorkflows: num(r.failed_workflows),
  }));
}

export interface WorkflowRow {
  correlationId: string;
  started: number;
  durationNs: number;
  services: string[];
  /** The exact service names (idStr), for links; `services` are the shown texts. */
  serviceIds: string[];
  steps: number;
  failedSteps: number;
  retries: number;
  misrouted: number;
  failed: boolean;
  firstFailureClass: string;
  firstFailureSource: string;
  firstFailureCode: string;
  firstFailureService: string;
  firstFailureServiceId: string;
}

/** A row of workflows_recent or workflows_matching. */
function workflowRow(r: Record<string, unknown>): WorkflowRow {
  return {
    correlationId: idStr(r.correlation_id),
    started: num(r.started),
    durationNs: num(r.duration_ns),
    services: Array.isArray(r.services) ? r.services.map(str) : [],
    serviceIds: Array.isArray(r.services) ? r.services.map(idStr) : [],
    steps: num(r.steps),
    failedSteps: num(r.failed_steps),
    retries: num(r.retries),
    misrouted: num(r.misrouted),
    failed: r.failed === true || num(r.failed) === 1,
    firstFailureClass: str(r.first_failure_class),
    firstFailureSource: str(r.first_failure_source),
    firstFailureCode: str(r.first_failure_code),
    firstFailureService: str(r.first_failure_service),
    firstFailureServiceId: idStr(r.first_failure_service),
  };
}

export async function loadRecentWorkflows(
  p: DashboardParams,
  failedOnly: boolean,
  limit = 50,
): Promise<WorkflowRow[]> {
  const rows = await panelQuery('workflows_recent', { ...rangeParams(p), failed_only: failedOnly, limit });
  return rows.map(workflowRow);
}

/** The newest workflows the list's filters select (workflows_matching, any filter of workflow-selection.ts). */
export async function loadMatchingWorkflows(
  p: DashboardParams,
  f: WorkflowFilters,
  limit = 50,
): Promise<WorkflowRow[]> {
  const rows = await panelQuery('workflows_matching', {
    ...(await weightedParams(p)),
    ...workflowFilterQueryParams(f),
    limit,
  });
  return rows.map(workflowRow);
}

/** How many workflows the filters select: weighted as the page's figures are, and stored. */
export async function loadMatchingTotal(
  p: DashboardParams,
  f: WorkflowFilters,
): Promise<{ workflows: number; stored: number }> {
  const r = (
    await panelQuery('workflows_matching_total', {
      ...(await weightedParams(p)),
      ...workflowFilterQueryParams(f),
    })
  )[0];
  return { workflows: num(r?.workflows), stored: num(r?.stored) };
}

import type { DashboardParams } from './dashboard-params';
import { FAILURE_CLASSES } from './failure-classes';
import { dashboardHref } from './url-state';
import { parsePrintable, type SearchParams, single } from './url-values';

/** A failed workflow's first failure as workflows_first_failure groups them, each field exact. */
export interface FirstFailureKey {
  class: string;
  service: string;
  source: string;
  code: string;
}

/**
 * The Workflows list's own filters beyond the shared ones (range, service): what narrows the list
 * to exactly the workflows a number of the page counts, so that its total reads that number
 * (matching_workflows, sql/schema/545).
 */
export interface WorkflowFilters {
  /** `failed=1`: the failed workflows; `failed=0`: the ones that succeeded; '' either. */
  outcome: '' | 'failed' | 'succeeded';
  /** `steps=n`: the workflows of exactly n steps; null any. */
  steps: number | null;
  /** `first=1` with first_class, first_service, first_source, first_code (absent = ''); null any. */
  first: FirstFailureKey | null;
}

export const NO_WORKFLOW_FILTERS: WorkflowFilters = { outcome: '', steps: null, first: null };

const FIRST_KEYS = ['first_class', 'first_service', 'first_source', 'first_code'] as const;

function parseFirst(sp: SearchParams): FirstFailureKey | null {
  const first = single(sp, 'first') ?? '';
  if (first !== '' && first !== '1')
    throw new RangeError(`"first" is 1 (match the first failure exactly) or absent, got "${first}".`);
  if (first === '') {
    const stray = FIRST_KEYS.find((k) => (single(sp, k) ?? '') !== '');
    if (stray) throw new RangeError(`"${stray}" narrows by the first failure: add first=1, or remove it.`);
    return null;
  }
  const cls = single(sp, 'first_class') ?? '';
  if (cls !== '' && !(FAILURE_CLASSES as readonly string[]).includes(cls))
    throw new RangeError(
      `"first_class" must be one of ${FAILURE_CLASSES.join(', ')} or absent, got "${cls}".`,
    );
  return {
    class: cls,
    service: parsePrintable(sp, 'first_service', 'a service name'),
    source: parsePrintable(sp, 'first_source', 'a source'),
    code: parsePrintable(sp, 'first_code', 'a failure code'),
  };
}

/** Reads `failed`, `steps` and `first` from the URL; throws RangeError with a fix-it message. */
export function parseWorkflowFilters(sp: SearchParams): WorkflowFilters {
  const failed = single(sp, 'failed') ?? '';
  if (failed !== '' && failed !== '1' && failed !== '0')
    throw new RangeError(
      `"failed" is 1 (the failed workflows), 0 (the ones that succeeded) or absent, got "${failed}".`,
    );
  const steps = single(sp, 'steps') ?? '';
  if (steps !== '' && !/^\d{1,6}$/.test(steps))
    throw new RangeError(`"steps" is a whole number of steps (0 to 999999) or absent, got "${steps}".`);
  return {
    outcome: failed === '1' ? 'failed' : failed === '0' ? 'succeeded' : '',
    steps: steps === '' ? null : Number(steps),
    first: parseFirst(sp),
  };
}

/** matching_workflows' parameters for these filters (-1 and 0 = any). */
export function workflowFilterQueryParams(f: WorkflowFilters): Record<string, string | number> {
  return {
    failed: f.outcome === 'failed' ? 1 : f.outcome === 'succeeded' ? 0 : -1,
    steps: f.steps ?? -1,
    first: f.first ? 1 : 0,
    first_class: f.first?.class ?? '',
    first_service: f.first?.service ?? '',
    first_source: f.first?.source ?? '',
    first_code: f.first?.code ?? '',
  };
}

/** Whether the list must read workflows_matching: a filter workflows_recent does not take is set. */
export function needsMatchingList(f: WorkflowFilters): boolean {
  return f.steps !== null || f.first !== null || f.outcome === 'succeeded';
}

/** These filters as URL values (null = absent), '' fields of the first failure left out. */
export function workflowFilterLinkParams(f: WorkflowFilters): Record<string, string | null> {
  return {
    failed: f.outcome === 'failed' ? '1' : f.outcome === 'succeeded' ? '0' : null,
    steps: f.steps === null ? null : String(f.steps),
    first: f.first ? '1' : null,
    first_class: f.first?.class || null,
    first_service: f.first?.service || null,
    first_source: f.first?.source || null,
    first_code: f.first?.code || null,
  };
}

/** The id of the list the links below open at. */
export const WORKFLOW_LIST_ID = 'recent-title';

/** `/workflows?…#list` listing exactly the workflows `f` selects, the range and service kept. */
export function workflowsHref(p: DashboardParams, f: Partial<WorkflowFilters>): string {
  const changes = workflowFilterLinkParams({ ...NO_WORKFLOW_FILTERS, ...f });
  return `${dashboardHref('/workflows', p, changes)}#${WORKFLOW_LIST_ID}`;
}

/** What the filters select, in words after "N workflows" (the list's heading). */
export function describeWorkflowFilters(f: WorkflowFilters): string {
  const parts: string[] = [];
  if (f.steps !== null) parts.push(`of ${f.steps} step${f.steps === 1 ? '' : 's'}`);
  if (f.outcome !== '') parts.push(`that ${f.outcome}`);
  if (f.first) {
    const where = [f.first.service && `in ${f.first.service}`, f.first.source, f.first.code].filter(Boolean);
    parts.push(`whose first failure was ${[f.first.class || 'of no class recorded', ...where].join(' ')}`);
  }
  return parts.join(', ');
}

import {
  budgetDefaults,
  type CallerFaultMode,
  parseCallerFaults,
  parsePeriodDays,
  parseSli,
  parseSlo,
  type Sli,
} from '@faultline/collector/budget';
import { FAILURE_CLASSES } from './failure-classes';
import { type Narrowing, parseNarrowing } from './narrowing';
import { parseTimeRange, type TimeRange } from './time-range';
import { parsePrintable, type SearchParams, single } from './url-values';

/** Everything a page reads from its URL. Filters live in the URL so a link (or a refresh) keeps them. */
export interface DashboardParams {
  range: TimeRange;
  /** '' means every service. */
  service: string;
  /** '' means every source. */
  source: string;
  /** '' means every class; else one envelope class (`?class=`). */
  class: string;
  /** '' means every dependency; else one dependency name as faultline_dependency gives it (`?dependency=`). */
  dependency: string;
  /** SLO target in percent of successful calls, e.g. 99.5 (`?slo=`, env FAULTLINE_SLO_TARGET). */
  slo: number;
  /** SLO period in days (`?period=`, env FAULTLINE_SLO_PERIOD_DAYS). */
  periodDays: number;
  /** Which calls the budget panel counts (`?sli=requests|calls`). */
  sli: Sli;
  /** Whether caller-fault classes count against the budget (`?caller_faults=`, env FAULTLINE_BUDGET_CALLER_FAULTS). */
  callerFaults: CallerFaultMode;
  /** Code, version, endpoint and message search (`?code=`, `?version=`, `?endpoint=`, `?q=`). */
  narrow: Narrowing;
}

export type { SearchParams } from './url-values';
export { parsePrintable, single } from './url-values';

const NAME_RE = /^[\w.:/@-]{0,200}$/;

function parseName(sp: SearchParams, key: string): string {
  const value = single(sp, key) ?? '';
  if (!NAME_RE.test(value)) {
    throw new RangeError(
      `"${key}" must be a plain name (letters, digits, . _ - : / @), got ${JSON.stringify(value)}.`,
    );
  }
  return value;
}

function parseClass(sp: SearchParams): string {
  const value = single(sp, 'class') ?? '';
  if (value !== '' && !(FAILURE_CLASSES as readonly string[]).includes(value)) {
    throw new RangeError(
      `"class" must be one of ${FAILURE_CLASSES.join(', ')}, got ${JSON.stringify(value)}.`,
    );
  }
  return value;
}

function given(sp: SearchParams, key: string): string | undefined {
  const v = single(sp, key);
  return v === undefined || v === '' ? undefined : v;
}

/** Throws RangeError with a message that says what to change in the URL (or which env variable). */
export function parseDashboardParams(sp: SearchParams, nowMs: number = Date.now()): DashboardParams {
  const defaults = budgetDefaults();
  const slo = given(sp, 'slo');
  const period = given(sp, 'period');
  const sli = given(sp, 'sli');
  const callerFaults = given(sp, 'caller_faults');
  return {
    range: parseTimeRange(
      { range: single(sp, 'range'), from: single(sp, 'from'), to: single(sp, 'to') },
      nowMs,
    ),
    service: parseName(sp, 'service'),
    source: parseName(sp, 'source'),
    class: parseClass(sp),
    dependency: parsePrintable(sp, 'dependency', 'a dependency name'),
    slo: slo === undefined ? defaults.slo : parseSlo(slo, 'slo'),
    periodDays: period === undefined ? defaults.periodDays : parsePeriodDays(period, 'period'),
    sli: sli === undefined ? defaults.sli : parseSli(sli, 'sli'),
    callerFaults:
      callerFaults === undefined ? defaults.callerFaults : parseCallerFaults(callerFaults, 'caller_faults'),
    narrow: parseNarrowing(sp),
  };
}

/** The ClickHouse parameters every filtered panel query declares. */
export function filterQueryParams(p: DashboardParams): Record<string, string | number> {
  return { from: p.range.fromS, to: p.range.toS, service: p.service, source: p.source };
}

/** The filter parameters plus class and dependency, for the panels that narrow by both (Overview, Dependencies). */
export function failureQueryParams(p: DashboardParams): Record<string, string | number> {
  return { ...filterQueryParams(p), class: p.class, dependency: p.dependency };
}

/** The filtered parameters plus the start of the SLO period that ends with the range. */
export function budgetQueryParams(p: DashboardParams): Record<string, string | number> {
  return { ...filterQueryParams(p), period_from: p.range.toS - p.periodDays * 86_400 };
}

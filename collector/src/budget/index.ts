// The pure budget rules, importable without the store (no chDB, no ClickHouse client): the
// dashboard's client-side code and the collector's alert evaluator share this one home.

export { type BudgetRows, readCallBudgetRows, readRequestBudgetRows } from './budget-reads.js';
export { budgetCounts, callBudgetInputs, requestBudgetInputs } from './budget-rows.js';
export {
  BURN_WINDOWS,
  type BurnWindow,
  budgetDefaults,
  burnWindowParams,
  CALLER_FAULT_CLASSES,
  CALLER_FAULT_MODES,
  type CallerFaultMode,
  DEFAULT_PERIOD_DAYS,
  DEFAULT_SLI,
  DEFAULT_SLO,
  parseCallerFaults,
  parsePeriodDays,
  parseSli,
  parseSlo,
  SLIS,
  type Sli,
} from './budget-settings.js';
export { type BurnBucket, type BurnPoint, burnSeries } from './burn-series.js';
export { edgeBudgetShare } from './edge-budget.js';
export {
  type BudgetCounts,
  type BudgetInput,
  type BudgetSettings,
  burnRate,
  computeBudget,
  computeBudgets,
  countsAgainstBudget,
  type Headline,
  type MatrixInputRow,
  pickHeadline,
  type ServiceBudget,
  UNCLASSIFIED,
} from './error-budget.js';
export type { RunBudgetQuery } from './run-budget-query.js';
export { readWorkflowsSampled } from './workflows-sampled.js';

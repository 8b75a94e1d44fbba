export {
  AGENT_ALERT_NAME,
  type AgentActionRule,
  agentWrongActions,
  DEFAULT_AGENT_RULE,
} from './agent-rules.js';
export {
  type AlertConfig,
  DEFAULT_ALERT_INTERVAL_S,
  parseAlertInterval,
  parseAlertRulesFile,
  parseMinEvents,
  parseStaleAfter,
  parseWebhookFormat,
  resolveAlertConfig,
  STALE_AFTER_RANGE_S,
  WEBHOOK_FORMATS,
  type WebhookFormat,
} from './alert-config.js';
export { type AlertDelivery, createAlertDelivery, webhookPayload } from './alert-delivery.js';
export { type AlertEvaluator, type AlertEvaluatorOptions, createAlertEvaluator } from './alert-evaluator.js';
export { type AlertMetricsSource, alertMetrics, type EvaluationStats } from './alert-metrics.js';
export {
  type AlertRules,
  DEFAULT_ALERT_RULES,
  parseAlertRules,
  readAlertRulesFile,
} from './alert-rules-file.js';
export type { AlertBreakdown, AlertNotice, DeliveryOutcome } from './alert-types.js';
export { alertmanagerPayload } from './alertmanager-payload.js';
export {
  ALERTS_API_PREFIX,
  type AlertsApi,
  type ApiAccess,
  createAlertsApi,
  silenceJson,
} from './alerts-api.js';
export {
  type AlertsServer,
  type AlertsServerOptions,
  DEFAULT_ALERTS_PORT,
  startAlertsServer,
} from './alerts-server.js';
export {
  BURN_ALERT_NAME,
  BURN_RULES,
  type BurnRule,
  DEFAULT_MIN_EVENTS,
  MAX_MIN_EVENTS,
  type Severity,
} from './burn-rules.js';
export {
  CLASS_RATE_ALERT_NAME,
  type ClassRateRule,
  type ClassRule,
  classAlertKey,
  evaluateClassRules,
  NEW_CODE_ALERT_NAME,
  type NewCodeRule,
} from './class-rules.js';
export { alertKey, type BurnFinding, judgeBurn } from './judge-burn.js';
export {
  judgeRule,
  judgeWindows,
  type RuleVerdict,
  ruleMinEvents,
  type WindowVerdict,
} from './judge-windows.js';
export {
  createOutboundCounters,
  MAX_METRIC_SERVICES,
  OUTBOUND_SETTLE_S,
  type OutboundCounters,
  type OutboundSeries,
} from './outbound-counters.js';
export { type PostOptions, type PostResult, postJson } from './post-json.js';
export {
  CALLS_METRIC,
  FAILURES_METRIC,
  prometheusRules,
  renderPrometheusRules,
  runPrometheusRulesCli,
} from './prometheus-rules.js';
export { judgeServices, type ServiceJudgement, type ServiceVerdict } from './service-verdicts.js';
export {
  createSilenceBook,
  type Silence,
  type SilenceBook,
  type SilenceBookOptions,
} from './silence-book.js';
export {
  MAX_SILENCE_MS,
  parseSilenceInput,
  SilenceInputError,
  type SilenceMatchers,
  type SilenceSpec,
  silenceMatches,
} from './silence-input.js';
export { DEFAULT_STALE_AFTER_S, isStale, staleReason } from './staleness.js';
export { formatWebhook, pagerdutyPayload, slackPayload } from './webhook-formats.js';

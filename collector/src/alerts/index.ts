export {
  type AlertConfig,
  DEFAULT_ALERT_INTERVAL_S,
  parseAlertInterval,
  parseAlertRulesFile,
  resolveAlertConfig,
} from './alert-config.js';
export { type AlertDelivery, createAlertDelivery, webhookPayload } from './alert-delivery.js';
export { type AlertEvaluator, type AlertEvaluatorOptions, createAlertEvaluator } from './alert-evaluator.js';
export type { AlertBreakdown, AlertNotice, DeliveryOutcome } from './alert-types.js';
export { alertmanagerPayload } from './alertmanager-payload.js';
export { BURN_ALERT_NAME, BURN_RULES, type BurnRule, type Severity } from './burn-rules.js';
export { alertKey, type BurnFinding, judgeBurn } from './judge-burn.js';
export { type PostOptions, type PostResult, postJson } from './post-json.js';

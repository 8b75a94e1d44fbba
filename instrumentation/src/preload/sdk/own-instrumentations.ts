import type { Instrumentation } from '@opentelemetry/instrumentation';

/**
 * Faultline's own instrumentations, for popular libraries OpenTelemetry has none for (checked
 * against @opentelemetry/auto-instrumentations-node and opentelemetry-js-contrib): one folder per
 * library under clients/, in the contrib layout. Keyed by the short name a user gives in
 * OTEL_NODE_ENABLED_INSTRUMENTATIONS / OTEL_NODE_DISABLED_INSTRUMENTATIONS, the same way the
 * auto-instrumentations' names are given (`pg`, `redis`…).
 */
export const OWN_INSTRUMENTATIONS: Record<string, () => Instrumentation> = {};

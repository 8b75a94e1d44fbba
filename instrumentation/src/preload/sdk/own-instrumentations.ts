import type { Instrumentation } from '@opentelemetry/instrumentation';
import { aiInstrumentation } from '../clients/ai/index.js';
import { betterSqlite3Instrumentation } from '../clients/better-sqlite3/index.js';
import { mcpInstrumentation } from '../clients/mcp/index.js';
import { mqttInstrumentation } from '../clients/mqtt/index.js';
import { natsInstrumentation } from '../clients/nats/index.js';
import { postgresJsInstrumentation } from '../clients/postgres-js/index.js';

/**
 * Faultline's own instrumentations, for popular libraries OpenTelemetry has none for (checked
 * against @opentelemetry/auto-instrumentations-node and opentelemetry-js-contrib): one folder per
 * library under clients/, in the contrib layout. Keyed by the short name a user gives in
 * OTEL_NODE_ENABLED_INSTRUMENTATIONS / OTEL_NODE_DISABLED_INSTRUMENTATIONS, the same way the
 * auto-instrumentations' names are given (`pg`, `redis`…).
 */
export const OWN_INSTRUMENTATIONS: Record<string, () => Instrumentation> = {
  postgres: postgresJsInstrumentation,
  'better-sqlite3': betterSqlite3Instrumentation,
  nats: natsInstrumentation,
  mqtt: mqttInstrumentation,
  ai: aiInstrumentation,
  mcp: mcpInstrumentation,
};

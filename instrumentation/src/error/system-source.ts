/**
 * The envelope `source` a caller's `ctx.system` implies when the error itself names none (a socket
 * error, an unknown value). Database systems (`db.system.name`) are `db`; brokers named by their
 * `messaging.system` value (OpenTelemetry's `rabbitmq`, `kafka`; `nats` and `mqtt` as their
 * instrumentations write them) are `messaging`, the source the KafkaJS family already reports.
 */
const MESSAGING_SYSTEMS = new Set(['rabbitmq', 'kafka', 'nats', 'mqtt']);

export function isMessagingSystem(system: string | undefined): boolean {
  return system !== undefined && MESSAGING_SYSTEMS.has(system);
}

export function sourceOfSystem(system: string): 'db' | 'messaging' {
  return MESSAGING_SYSTEMS.has(system) ? 'messaging' : 'db';
}

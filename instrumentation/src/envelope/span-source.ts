import { isToolCall } from './agent-fields.js';
import { storedText } from './stored-text.js';

/**
 * The envelope `source` a client span's own semconv attributes imply. One rule for both ends: the
 * preload counts a call under it, and the collector stamps it on spans that arrive without one
 * (stock SDKs, and the preload, which leaves it off the wire on successes because it follows from
 * the span).
 */
export function sourceOf(attrs: Readonly<Record<string, unknown>>): string | undefined {
  const rpc = attrs['rpc.system.name'] ?? attrs['rpc.system'];
  // Before the db check: DynamoDB spans carry db.system(.name) too, yet their failures are the AWS
  // SDK's ('sdk'), and successes must count under the same source as failures.
  if (rpc === 'aws-api') return 'sdk';
  if (attrs['db.system.name'] !== undefined || attrs['db.system'] !== undefined) return 'db';
  if (rpc !== undefined) return 'rpc';
  // A broker client (amqplib, kafkajs, nats, mqtt): OpenTelemetry's name for brokers.
  if (attrs['messaging.system'] !== undefined) return 'messaging';
  if (attrs['http.request.method'] !== undefined || attrs['http.method'] !== undefined) return 'http';
  return undefined;
}

/**
 * The source a span is counted and filed under: the envelope's own (faultline.source), else what
 * its attributes imply, '' when neither says; an agent's tool call is always `tool`, so its
 * successes (which imply none) and failures (whose envelope may name what failed beneath it: an
 * MCP result stating "HTTP 429") land under one source. The twin of faultline_source
 * (sql/schema/005_functions.sql; parity: sql/test/counting/source-parity.test.ts and
 * tool-call-source.test.ts).
 */
export function spanSourceOf(attrs: Readonly<Record<string, unknown>>): string {
  if (isToolCall(attrs)) return 'tool';
  const own = storedText(attrs['faultline.source']);
  return own !== '' ? own : (sourceOf(attrs) ?? '');
}

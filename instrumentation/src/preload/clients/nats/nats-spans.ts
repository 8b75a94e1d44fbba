import { type Attributes, type Span, SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import { fileSpanError } from '../../pipeline/span-errors.js';

/** What of nats.js a span reads; the package's own types stay out of the preload's edges. */
export interface NatsServer {
  hostname?: unknown;
  port?: unknown;
}
export interface NatsConnection {
  protocol?: { server?: NatsServer };
  options?: { inboxPrefix?: unknown };
}
export interface NatsConnectOptions {
  servers?: unknown;
  port?: unknown;
}

/** nats.js's defaults (core.js DEFAULT_HOST, transport.js defaultPort) when no server is given. */
const DEFAULT_HOST = '127.0.0.1';
const DEFAULT_PORT = 4222;
const DEFAULT_INBOX = '_INBOX';

export type Operation = 'publish' | 'request';

/**
 * A publish or request span. A reply inbox is a per-call subject: it stays out of the span name,
 * which must group calls, and is marked temporary as semconv says.
 */
export function startSendSpan(
  tracer: Tracer,
  nc: NatsConnection,
  operation: Operation,
  subject: string,
): Span {
  const attributes: Attributes = {
    'messaging.system': 'nats',
    'messaging.destination.name': subject,
    'messaging.operation.type': 'send',
    'messaging.operation.name': operation,
  };
  const server = nc.protocol?.server;
  if (typeof server?.hostname === 'string') attributes['server.address'] = server.hostname;
  if (typeof server?.port === 'number') attributes['server.port'] = server.port;
  const prefix = nc.options?.inboxPrefix;
  const temporary = subject.startsWith(typeof prefix === 'string' && prefix !== '' ? prefix : DEFAULT_INBOX);
  if (temporary) attributes['messaging.destination.temporary'] = true;
  const kind = operation === 'publish' ? SpanKind.PRODUCER : SpanKind.CLIENT;
  const name = `${operation} ${temporary ? '(temporary)' : subject}`;
  return tracer.startSpan(name, { kind, attributes });
}

/** The connect span: the first server it will dial, without any userinfo the URL carries. */
export function startConnectSpan(tracer: Tracer, opts: NatsConnectOptions | undefined): Span {
  const attributes: Attributes = { 'messaging.system': 'nats', 'messaging.operation.name': 'connect' };
  const server = firstServer(opts);
  if (server !== undefined) {
    attributes['server.address'] = server.address;
    attributes['server.port'] = server.port;
  }
  return tracer.startSpan('connect', { kind: SpanKind.CLIENT, attributes });
}

/** Once connected, the server actually reached (with several servers, not always the first). */
export function endConnected(span: Span, nc: NatsConnection | undefined): void {
  const server = nc?.protocol?.server;
  if (typeof server?.hostname === 'string') span.setAttribute('server.address', server.hostname);
  if (typeof server?.port === 'number') span.setAttribute('server.port', server.port);
  span.end();
}

/**
 * Hands nats.js's own NatsError to the span processor, which classifies it, then records it the
 * OpenTelemetry way; `error.type` is the client's ErrorCode ("503", "TIMEOUT", …).
 */
export function failSpan(span: Span, err: unknown): void {
  fileSpanError(span, err);
  const error = err instanceof Error ? err : new Error(String(err));
  span.recordException(error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
  const code = (err as { code?: unknown } | null)?.code;
  span.setAttribute('error.type', typeof code === 'string' && code !== '' ? code : error.name);
  span.end();
}

interface HostPort {
  address: string;
  port: number;
}

function firstServer(opts: NatsConnectOptions | undefined): HostPort | undefined {
  const servers = opts?.servers;
  const first = Array.isArray(servers) ? servers[0] : servers;
  if (typeof first === 'string' && first.trim() !== '') return hostPort(first);
  const port = typeof opts?.port === 'number' ? opts.port : DEFAULT_PORT;
  return { address: DEFAULT_HOST, port };
}

/** "nats://user:pass@host:4222", "host:4222", "[::1]:4222", "host": credentials never kept. */
function hostPort(server: string): HostPort | undefined {
  let rest = server.trim().replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  rest = rest.slice(rest.lastIndexOf('@') + 1).split('/')[0] ?? '';
  const match = /^\[([^\]]+)\](?::(\d+))?$/.exec(rest) ?? /^([^:[\]]+)(?::(\d+))?$/.exec(rest);
  if (match === null || match[1] === undefined) return undefined;
  return { address: match[1], port: match[2] === undefined ? DEFAULT_PORT : Number(match[2]) };
}

import { type Attributes, type Span, SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import { fileSpanError } from '../../pipeline/span-errors.js';

/** What of an MqttClient a span reads; the package's own types stay out of the preload's edges. */
export interface MqttClientLike {
  /** mqtt.js keeps the connect options here; the stream builder fills in hostname and port. */
  options?: { hostname?: unknown; host?: unknown; port?: unknown };
  disconnecting?: unknown;
  on?(event: string, listener: (...args: never[]) => void): unknown;
  removeListener?(event: string, listener: (...args: never[]) => void): unknown;
}
interface ConnectOptions {
  hostname?: unknown;
  host?: unknown;
  port?: unknown;
  protocol?: unknown;
}

/** Default ports of mqtt.js's protocols (connect/index.js, tcp.js, tls.js, ws.js). */
const DEFAULT_PORTS: Record<string, number> = {
  mqtt: 1883,
  tcp: 1883,
  mqtts: 8883,
  ssl: 8883,
  tls: 8883,
  ws: 80,
  wss: 443,
};

export function startConnectSpan(tracer: Tracer, brokerUrl: unknown, opts: unknown): Span {
  const attributes: Attributes = { 'messaging.system': 'mqtt', 'messaging.operation.name': 'connect' };
  setBroker(attributes, brokerUrl, opts);
  return tracer.startSpan('connect', { kind: SpanKind.CLIENT, attributes });
}

export function startPublishSpan(tracer: Tracer, client: MqttClientLike, topic: unknown): Span {
  const name = typeof topic === 'string' ? topic : '';
  const attributes: Attributes = {
    'messaging.system': 'mqtt',
    'messaging.destination.name': name,
    'messaging.operation.type': 'send',
    'messaging.operation.name': 'publish',
  };
  addServer(attributes, client);
  return tracer.startSpan(`publish ${name}`, { kind: SpanKind.PRODUCER, attributes });
}

/** One topic names the destination; several (an array, an object of filters) name none. */
export function startSubscribeSpan(tracer: Tracer, client: MqttClientLike, topics: unknown): Span {
  const attributes: Attributes = { 'messaging.system': 'mqtt', 'messaging.operation.name': 'subscribe' };
  const topic = singleTopic(topics);
  if (topic !== undefined) attributes['messaging.destination.name'] = topic;
  addServer(attributes, client);
  const name = topic === undefined ? 'subscribe' : `subscribe ${topic}`;
  return tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes });
}

/** The broker a connected client reached (mqtt.js resolved the URL and its defaults by now). */
export function addServer(attributes: Attributes, client: MqttClientLike | undefined): void {
  const options = client?.options;
  const host = options?.hostname ?? options?.host;
  if (typeof host === 'string' && host !== '') attributes['server.address'] = host;
  if (typeof options?.port === 'number') attributes['server.port'] = options.port;
}

/**
 * Hands mqtt.js's own error to the span processor, which classifies it, then records it the
 * OpenTelemetry way; `error.type` is the CONNACK/SUBACK/PUBACK reason code, a socket's code, else
 * the error's name.
 */
export function failSpan(span: Span, err: unknown): void {
  fileSpanError(span, err);
  const error = err instanceof Error ? err : new Error(String(err));
  span.recordException(error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
  span.setAttribute('error.type', errorTypeOf(err, error.name));
  span.end();
}

/**
 * A SUBACK that refused a filter, when mqtt.js hands it over as a success: before 5.x rejected it
 * with ErrorWithSubackPacket, the callback got `granted` entries whose qos is the failure code
 * (0x80, or an MQTT 5 reason code ≥ 0x80). Shaped as mqtt.js's own error, which the classifier
 * reads (classify-mqtt-error.ts: the name and `packet.granted`).
 */
export function subackRefusal(granted: unknown): Error | undefined {
  if (!Array.isArray(granted)) return undefined;
  const codes: number[] = [];
  for (const entry of granted) {
    const qos = (entry as { qos?: unknown } | null)?.qos ?? entry;
    if (typeof qos === 'number') codes.push(qos);
  }
  const refused = codes.find((code) => (code & 0x80) !== 0);
  if (refused === undefined) return undefined;
  const err = new Error(`Subscribe error: SUBACK reason code ${refused}`);
  err.name = 'ErrorWithSubackPacket';
  return Object.assign(err, { packet: { cmd: 'suback', granted: codes } });
}

function errorTypeOf(err: unknown, name: string): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'number' || (typeof code === 'string' && code !== '')) return String(code);
  const granted = (err as { packet?: { granted?: unknown } } | null)?.packet?.granted;
  if (Array.isArray(granted)) {
    const refused = granted.find((g) => typeof g === 'number' && (g & 0x80) !== 0);
    if (refused !== undefined) return String(refused);
  }
  return name;
}

function singleTopic(topics: unknown): string | undefined {
  if (typeof topics === 'string') return topics;
  if (Array.isArray(topics))
    return topics.length === 1 && typeof topics[0] === 'string' ? topics[0] : undefined;
  if (topics === null || typeof topics !== 'object') return undefined;
  const keys = Object.keys(topics).filter((key) => key !== 'resubscribe');
  return keys.length === 1 ? keys[0] : undefined;
}

/**
 * The broker of `connect(url, opts)` / `connect(opts)`, read the way mqtt.js merges them (options
 * win over the URL). Only the host and port are read: a URL's userinfo never reaches the span.
 */
function setBroker(attributes: Attributes, brokerUrl: unknown, opts: unknown): void {
  let host: unknown;
  let port: unknown;
  let protocol: unknown;
  if (typeof brokerUrl === 'string' && brokerUrl !== '') {
    try {
      const url = new URL(brokerUrl);
      host = url.hostname.replace(/^\[(.*)\]$/, '$1');
      port = url.port === '' ? undefined : Number(url.port);
      protocol = url.protocol.replace(/:$/, '');
    } catch {
      // A URL new URL() refuses: mqtt.js's own parser decides; the span goes without a server.
    }
  }
  const options = (
    brokerUrl !== null && typeof brokerUrl === 'object' && opts === undefined ? brokerUrl : opts
  ) as ConnectOptions | undefined;
  host = options?.hostname ?? options?.host ?? host;
  port = options?.port ?? port;
  protocol = options?.protocol ?? protocol;
  if (typeof host === 'string' && host !== '') attributes['server.address'] = host;
  const defaultPort = typeof protocol === 'string' ? DEFAULT_PORTS[protocol] : undefined;
  const resolved = typeof port === 'number' ? port : Number(port ?? defaultPort);
  if (Number.isInteger(resolved) && resolved > 0) attributes['server.port'] = resolved;
}

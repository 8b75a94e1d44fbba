import type { ClassifyContext, ErrorClass } from '../types.js';
import { errorName, read, readNumber, readString } from './safe-read.js';
import type { Verdict } from './verdict.js';

/**
 * MQTT through mqtt.js (v5). A refused CONNACK rejects with `ErrorWithReasonCode` whose numeric
 * `code` is the return code (MQTT 3.1.1 §3.2.2.3: 1–5) or the reason code (MQTT 5 §3.2.2.2:
 * 0x80 and up); a SUBACK that refuses a filter with `ErrorWithSubackPacket` ("Subscribe error:
 * Not authorized"), the refused codes in `packet.granted` (3.1.1: 0x80; 5: the reason code); a
 * PUBACK/PUBREC failure with `ErrorWithReasonCode` too. Code rule: the return or reason code as
 * a decimal string ("135"), the same number either version's table states.
 */

/** MQTT 3.1.1 CONNACK return codes. */
const CONNACK_V3: Record<number, ErrorClass> = {
  1: 'permanent', // unacceptable protocol version
  2: 'validation', // identifier rejected: the client id must change
  3: 'transient', // server unavailable
  4: 'authentication', // bad user name or password
  5: 'authentication', // not authorized
};

/** MQTT 5 reason codes 0x80+ (CONNACK, SUBACK, PUBACK, DISCONNECT share one table). */
const REASON_V5: Record<number, ErrorClass> = {
  128: 'permanent', // unspecified error (also MQTT 3.1.1's SUBACK failure 0x80)
  129: 'permanent', // malformed packet: a client bug
  130: 'permanent', // protocol error
  131: 'permanent', // implementation specific error
  132: 'permanent', // unsupported protocol version
  133: 'validation', // client identifier not valid
  134: 'authentication', // bad user name or password
  135: 'authentication', // not authorized
  136: 'transient', // server unavailable
  137: 'transient', // server busy
  138: 'authentication', // banned: a person must lift it
  139: 'transient', // server shutting down
  140: 'authentication', // bad authentication method
  141: 'transient', // keep alive timeout
  142: 'permanent', // session taken over: another client connected with the same id
  143: 'validation', // topic filter invalid
  144: 'validation', // topic name invalid
  145: 'transient', // packet identifier in use
  146: 'permanent', // packet identifier not found
  147: 'rate_limit', // receive maximum exceeded
  148: 'validation', // topic alias invalid
  149: 'validation', // packet too large
  150: 'rate_limit', // message rate too high
  151: 'permanent', // quota exceeded: an administrative limit a retry loop will not lift
  152: 'transient', // administrative action (disconnected by an operator)
  153: 'validation', // payload format invalid
  154: 'validation', // retain not supported
  155: 'validation', // QoS not supported
  156: 'transient', // use another server
  157: 'transient', // server moved
  158: 'validation', // shared subscriptions not supported
  159: 'rate_limit', // connection rate exceeded
  160: 'transient', // maximum connect time
  161: 'validation', // subscription identifiers not supported
  162: 'validation', // wildcard subscriptions not supported
};

const MQTT_NAMES = new Set(['ErrorWithReasonCode', 'ErrorWithSubackPacket']);

/** The first refused code of a SUBACK (bit 0x80 set), from the packet mqtt.js attaches. */
function refusedGrant(err: unknown): number | undefined {
  const granted = read(read(err, 'packet'), 'granted');
  if (!Array.isArray(granted)) return undefined;
  for (const g of granted.slice(0, 16)) if (typeof g === 'number' && (g & 0x80) !== 0) return g;
  return undefined;
}

export function classifyMqttError(
  err: unknown,
  ctx: ClassifyContext | undefined,
  name: string = errorName(err) ?? '',
): Verdict | null {
  const message = readString(err, 'message') ?? '';
  if (!MQTT_NAMES.has(name) && ctx?.system !== 'mqtt') return null;
  const code = readNumber(err, 'code') ?? refusedGrant(err);
  const raw: Record<string, unknown> = { name };
  if (code !== undefined) {
    const cls = message.startsWith('Connection refused')
      ? (CONNACK_V3[code] ?? REASON_V5[code])
      : REASON_V5[code];
    if (cls !== undefined) {
      raw.code = code;
      return { class: cls, code: String(code), source: 'messaging', raw };
    }
  }
  // mqtt.js validates topics before sending: "Invalid topic a/#/b".
  if (message.startsWith('Invalid topic'))
    return { class: 'validation', code: 'INVALID_TOPIC', source: 'messaging', raw };
  return null;
}

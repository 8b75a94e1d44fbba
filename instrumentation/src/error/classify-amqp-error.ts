import type { ClassifyContext, ErrorClass } from '../types.js';
import { readNumber, readString } from './safe-read.js';
import type { Verdict } from './verdict.js';

/**
 * RabbitMQ through amqplib. A channel or connection closed by the broker rejects with a plain
 * Error whose numeric `code` is the AMQP 0-9-1 reply code (404, with `classId`/`methodId` of the
 * refused method) and whose message quotes the reply text: `Operation failed: QueueDeclare; 404
 * (NOT-FOUND) with message "NOT_FOUND - no queue …"`, `Connection closed: 320 (CONNECTION-FORCED)
 * …`. A refused login arrives with no code at all: `Handshake terminated by server: 403
 * (ACCESS-REFUSED) …`. Code rule: the reply code as a string ("404"); the reply name in raw.
 * Reply codes: AMQP 0-9-1 specification §1.9 (constants) and RabbitMQ's own use of them.
 */

const BY_REPLY: Record<number, ErrorClass> = {
  311: 'validation', // content-too-large: the message must shrink
  312: 'permanent', // no-route: a mandatory message had no queue bound
  313: 'transient', // no-consumers: an immediate message found none; consumers may come back
  320: 'transient', // connection-forced: an operator or a node shutdown closed the connection
  402: 'permanent', // invalid-path: the virtual host does not exist
  403: 'authentication', // access-refused: login refused, or no permission on the resource
  404: 'permanent', // not-found: the queue or exchange does not exist; replan (declare it)
  405: 'transient', // resource-locked: an exclusive queue held by another connection
  406: 'validation', // precondition-failed: inequivalent arguments, unknown delivery tag
  501: 'permanent', // frame-error
  502: 'permanent', // syntax-error
  503: 'permanent', // command-invalid
  504: 'permanent', // channel-error: the client used a closed or unopened channel
  505: 'permanent', // unexpected-frame
  506: 'transient', // resource-error: the broker ran out of a resource
  530: 'permanent', // not-allowed (vhost missing); "access to vhost … refused" is read below
  540: 'permanent', // not-implemented
  541: 'transient', // internal-error
};

/** "… 404 (NOT-FOUND) with message" in amqplib's close and handshake texts. */
const REPLY_IN_TEXT = /\b([2-5]\d\d) \(([A-Z-]+)\)/;

const AMQP_TEXT =
  /^(?:Operation failed: |Connection closed: |Channel closed by server: |Handshake terminated by server: )/;

export function classifyAmqpError(err: unknown, ctx: ClassifyContext | undefined): Verdict | null {
  const message = readString(err, 'message');
  if (message === undefined) return null;
  // Every amqplib text starts with O, C or H: most errors are turned away without the regex.
  const first = message.charCodeAt(0);
  const maybe = first === 79 || first === 67 || first === 72;
  if (ctx?.system !== 'rabbitmq' && !(maybe && AMQP_TEXT.test(message))) return null;
  const m = REPLY_IN_TEXT.exec(message);
  const reply = readNumber(err, 'code') ?? (m ? Number(m[1]) : undefined);
  if (reply === undefined || !(reply in BY_REPLY)) return null;
  let cls = BY_REPLY[reply] as ErrorClass;
  if (reply === 530 && /access to vhost '[^']*' refused/.test(message)) cls = 'authentication';
  const raw: Record<string, unknown> = { name: readString(err, 'name') ?? 'Error', code: reply };
  if (m?.[2]) raw.reply = m[2];
  const classId = readNumber(err, 'classId');
  if (classId !== undefined) raw.classId = classId;
  const methodId = readNumber(err, 'methodId');
  if (methodId !== undefined) raw.methodId = methodId;
  return { class: cls, code: String(reply), source: 'messaging', raw };
}

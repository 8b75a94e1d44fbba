import type { ErrorClass } from '../types.js';
import { readNumber, readString } from './safe-read.js';
import type { Verdict } from './verdict.js';

/**
 * SMTP through nodemailer: `code` (EAUTH, ECONNECTION, EENVELOPE…), `command` (the SMTP verb
 * that failed) and the server's `responseCode` (RFC 5321: 4xx transient, 5xx permanent).
 * Code rule: the SMTP reply code ("421") when the server answered, else nodemailer's code.
 */

const BY_CODE: Record<string, ErrorClass> = {
  EAUTH: 'authentication',
  ENOAUTH: 'authentication',
  EOAUTH2: 'authentication',
  ECONNECTION: 'transient',
  ETIMEDOUT: 'transient',
  ESOCKET: 'transient',
  EDNS: 'transient',
  EENVELOPE: 'validation',
  EMESSAGE: 'validation',
  ESTREAM: 'permanent',
  ETLS: 'permanent',
  EPROTOCOL: 'permanent',
};

function classForReply(reply: number): ErrorClass {
  if (reply === 530 || reply === 534 || reply === 535 || reply === 538) return 'authentication';
  if (reply === 452 || reply === 451 || reply === 421 || reply === 450) return 'transient';
  if (reply === 552 || reply === 553 || reply === 501 || reply === 555) return 'validation';
  return reply >= 400 && reply < 500 ? 'transient' : 'permanent';
}

export function classifySmtpError(err: unknown): Verdict | null {
  const command = readString(err, 'command');
  const reply = readNumber(err, 'responseCode');
  if (command === undefined && reply === undefined) return null;
  const code = readString(err, 'code');
  if (reply === undefined && (code === undefined || !(code in BY_CODE))) return null;
  const raw: Record<string, unknown> = {};
  if (code !== undefined) raw.code = code;
  if (command !== undefined) raw.command = command;
  if (reply !== undefined && reply >= 200 && reply <= 599) {
    raw.responseCode = reply;
    return { class: classForReply(reply), code: String(reply), source: 'smtp', raw };
  }
  return { class: BY_CODE[code as string] as ErrorClass, code: code as string, source: 'smtp', raw };
}

import type { ErrorClass } from '../types.js';
import { read, readString } from './safe-read.js';
import type { Verdict } from './verdict.js';

/**
 * Prisma Client: PrismaClientKnownRequestError carries a stable `code` (P2002…) and `meta`;
 * PrismaClientInitializationError carries `errorCode` (P1001…); the validation, panic and unknown
 * kinds carry none. Prisma hides the database's own code, so its P-codes are what there is.
 * Code rule: the P-code ("P2002"); the error's name when there is none.
 */

const BY_CODE: Record<string, ErrorClass> = {
  P1000: 'authentication', // authentication failed against the database server
  P1010: 'authentication', // user was denied access
  P1001: 'transient', // can't reach database server
  P1002: 'transient', // database server reached but timed out
  P1008: 'transient', // operations timed out
  P1017: 'transient', // server has closed the connection
  P2024: 'transient', // timed out fetching a connection from the pool
  P2028: 'transient', // transaction API error (expired or closed transaction)
  P2034: 'transient', // write conflict or deadlock: retry the transaction
  P2037: 'transient', // too many database connections opened
  P5011: 'rate_limit', // Accelerate: too many requests
  P1003: 'permanent', // database does not exist
  P1011: 'permanent', // error opening a TLS connection
  P2001: 'permanent', // record searched for does not exist
  P2015: 'permanent', // related record not found
  P2017: 'permanent', // records for the relation are not connected
  P2018: 'permanent', // required connected records not found
  P2021: 'permanent', // table does not exist
  P2022: 'permanent', // column does not exist
  P2025: 'permanent', // record required by the operation not found
  P2026: 'permanent', // unsupported feature for this database
  P2000: 'validation', // value too long for the column
  P2002: 'validation', // unique constraint failed
  P2003: 'validation', // foreign key constraint failed
  P2004: 'validation', // a constraint failed
  P2005: 'validation', // invalid value for the field type
  P2006: 'validation', // provided value is not valid
  P2007: 'validation', // data validation error
  P2008: 'validation', // failed to parse the query
  P2009: 'validation', // failed to validate the query
  P2011: 'validation', // null constraint violation
  P2012: 'validation', // missing a required value
  P2013: 'validation', // missing a required argument
  P2014: 'validation', // change would violate a required relation
  P2019: 'validation', // input error
  P2020: 'validation', // value out of range
  P2023: 'validation', // inconsistent column data
  P2033: 'validation', // number does not fit in a 64-bit integer
};

const BY_NAME: Record<string, ErrorClass> = {
  PrismaClientValidationError: 'validation', // the query itself is malformed
  PrismaClientRustPanicError: 'permanent',
  PrismaClientUnknownRequestError: 'permanent',
  PrismaClientInitializationError: 'permanent',
  PrismaClientKnownRequestError: 'permanent',
};

export function classifyPrismaError(err: unknown, name: string): Verdict | null {
  if (!name.startsWith('PrismaClient')) return null;
  const code = readString(err, 'code') ?? readString(err, 'errorCode');
  const raw: Record<string, unknown> = { name };
  if (code !== undefined) raw.code = code;
  const meta = read(err, 'meta');
  if (meta !== null && typeof meta === 'object') raw.meta = meta;
  const cls = (code !== undefined ? BY_CODE[code] : undefined) ?? BY_NAME[name];
  if (cls === undefined) return null;
  const verdict: Verdict = { class: cls, code: code ?? name, source: 'db', raw };
  if (code === 'P2034') verdict.retryAfter = 0;
  return verdict;
}

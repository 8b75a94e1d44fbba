import type { ClassifyContext, ErrorClass } from '../types.js';
import { readNumber, readString } from './safe-read.js';
import type { Verdict } from './verdict.js';

/**
 * Oracle Database through node-oracledb: `errorNum` and `code` "ORA-00060" (thin-mode client
 * errors are "NJS-500"…). Code rule: the "ORA-NNNNN" / "NJS-NNN" code as the driver sends it.
 */

const BY_NUMBER: Record<number, ErrorClass> = {
  60: 'transient', // deadlock detected: the statement was rolled back
  8177: 'transient', // can't serialize access for this transaction
  51: 'transient', // timeout occurred while waiting for a resource
  54: 'transient', // resource busy (NOWAIT)
  30006: 'transient', // resource busy; acquire with WAIT timeout expired
  4021: 'transient', // timeout waiting to lock object
  1555: 'transient', // snapshot too old
  4068: 'transient', // existing state of packages discarded: call again
  4061: 'transient',
  18: 'transient', // maximum number of sessions exceeded
  20: 'transient', // maximum number of processes exceeded
  28: 'transient', // your session has been killed
  1012: 'transient', // not logged on
  1033: 'transient', // initialization or shutdown in progress
  1034: 'transient', // ORACLE not available
  1089: 'transient', // immediate shutdown in progress
  2396: 'transient', // exceeded maximum idle time
  3113: 'transient', // end-of-file on communication channel
  3114: 'transient', // not connected to ORACLE
  3135: 'transient', // connection lost contact
  12170: 'transient', // connect timeout
  12514: 'transient', // listener does not currently know of service (restarting)
  12516: 'transient',
  12519: 'transient',
  12520: 'transient',
  12528: 'transient',
  12537: 'transient', // TNS: connection closed
  12541: 'transient', // no listener
  12543: 'transient', // destination host unreachable
  12547: 'transient', // lost contact
  25408: 'transient', // can not safely replay call
  1: 'validation', // unique constraint violated
  1400: 'validation', // cannot insert NULL
  1407: 'validation', // cannot update to NULL
  1438: 'validation', // value larger than specified precision
  12899: 'validation', // value too large for column
  1722: 'validation', // invalid number
  1840: 'validation',
  1841: 'validation',
  1843: 'validation', // not a valid month
  1847: 'validation',
  1858: 'validation',
  1861: 'validation', // literal does not match format string
  2290: 'validation', // check constraint violated
  2291: 'validation', // parent key not found
  2292: 'validation', // child record found
  900: 'validation', // invalid SQL statement
  907: 'validation', // missing right parenthesis
  933: 'validation', // SQL command not properly ended
  936: 'validation', // missing expression
  1008: 'validation', // not all variables bound
  6502: 'validation', // PL/SQL numeric or value error
  942: 'permanent', // table or view does not exist
  904: 'permanent', // invalid identifier
  4043: 'permanent', // object does not exist
  12154: 'permanent', // could not resolve the connect identifier: configuration
  1017: 'authentication', // invalid credential; logon denied
  1031: 'authentication', // insufficient privileges
  1045: 'authentication', // lacks CREATE SESSION privilege
  1005: 'authentication', // null password given
  28000: 'authentication', // account is locked
  28001: 'authentication', // password has expired
};

/** node-oracledb thin-mode client errors (no server number). */
const NJS: Record<string, ErrorClass> = {
  'NJS-500': 'transient', // connection to the database was closed or broken
  'NJS-501': 'transient', // unexpected end of data
  'NJS-503': 'transient', // connection to host could not be established
  'NJS-040': 'transient', // connection request timeout (pool queue)
  'NJS-003': 'permanent', // invalid or closed connection
};

export function classifyOracleError(err: unknown, ctx: ClassifyContext | undefined): Verdict | null {
  const code = readString(err, 'code');
  if (code === undefined) return null;
  const num = readNumber(err, 'errorNum');
  if (code.startsWith('ORA-') && num !== undefined) {
    // RAISE_APPLICATION_ERROR uses 20000–20999: application logic, nothing says a retry helps.
    const cls = BY_NUMBER[num] ?? 'permanent';
    const verdict: Verdict = { class: cls, code, source: 'db', raw: { code, errorNum: num } };
    if (num === 60 || num === 8177) verdict.retryAfter = 0;
    return verdict;
  }
  if (code.startsWith('NJS-') && (code in NJS || ctx?.system === 'oracle.db')) {
    return { class: NJS[code] ?? 'permanent', code, source: 'db', raw: { code } };
  }
  return null;
}

import { ThrottlingException } from '@aws-sdk/client-dynamodb';
import { Metadata, status } from '@grpc/grpc-js';
import { callErrorFromStatus } from '@grpc/grpc-js/build/src/call.js';
import { ReplyError } from 'ioredis';
import { MongoServerError } from 'mongodb';
import OpenAI from 'openai';
import pg from 'pg';
import { RequestError } from 'tedious';
import { errors } from 'undici';
const A = (await import('/tmp/ab/old.mjs')).classifyError;
const B = (await import('/tmp/ab/new.mjs')).classifyError;
const pgError = (code, message) =>
  Object.assign(new pg.DatabaseError(message, 100, 'error'), { severity: 'ERROR', code, routine: 'x' });
const mysqlError = (errno, code, sqlState, message) =>
  Object.assign(new Error(message), { code, errno, sqlState, sqlMessage: message });
const system = (code) =>
  Object.assign(new Error(`connect ${code} 10.0.0.1:443`), { errno: -111, code, syscall: 'connect' });

const db = [
  pgError('40P01', 'deadlock detected'),
  pgError('23505', 'duplicate key value violates unique constraint "users_email_key"'),
  mysqlError(1213, 'ER_LOCK_DEADLOCK', '40001', 'Deadlock found when trying to get lock'),
  mysqlError(1062, 'ER_DUP_ENTRY', '23000', "Duplicate entry '1' for key 'PRIMARY'"),
  Object.assign(new RequestError('Transaction was deadlocked', 'EREQUEST'), {
    number: 1205,
    state: 51,
    class: 13,
  }),
  new ReplyError('WRONGTYPE Operation against a key holding the wrong kind of value'),
  new MongoServerError({
    ok: 0,
    code: 112,
    codeName: 'WriteConflict',
    errmsg: 'Write conflict',
    errorLabels: ['TransientTransactionError'],
  }),
];

const other = [
  system('ECONNREFUSED'),
  system('ECONNRESET'),
  new TypeError('fetch failed', { cause: system('ECONNREFUSED') }),
  new errors.HeadersTimeoutError(),
  new ThrottlingException({ message: 'Rate exceeded', $metadata: { httpStatusCode: 400, requestId: 'R1' } }),
  callErrorFromStatus(
    { code: status.UNAVAILABLE, details: 'No connection established', metadata: new Metadata() },
    '',
  ),
  OpenAI.APIError.generate(
    429,
    { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded', param: null } },
    undefined,
    new Headers({ 'retry-after': '2' }),
  ),
  Object.assign(new Error('Not Found'), { status: 404 }),
];

const unknown = [new Error('something odd'), 'a thrown string', null, { reason: 'plain object' }];


const mixed = [...db, ...other, ...unknown];
function cpuRate(fn, n) {
  const t0 = process.cpuUsage();
  let s = 0;
  for (let i = 0; i < n; i++) s += fn(mixed[i % mixed.length]).retryable ? 1 : 0;
  const u = process.cpuUsage(t0);
  return n / ((u.user + u.system) / 1e6);
}
for (let i = 0; i < 3; i++) { cpuRate(A, 50000); cpuRate(B, 50000); }
const ra = [], rb = [];
for (let r = 0; r < 9; r++) { ra.push(cpuRate(A, 200000)); rb.push(cpuRate(B, 200000)); }
const med = (x) => x.sort((a, b) => a - b)[4];
console.log('old (HEAD) median', Math.round(med(ra)), 'new median', Math.round(med(rb)), 'ratio', (med(rb) / med(ra)).toFixed(3));

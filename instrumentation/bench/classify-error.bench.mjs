// classifyError throughput on one core, over a mixed set of errors built by the real libraries.
// Imports the BUILT package: run `npm run build -w @faultline/instrumentation` first.
// Prints calls/s for the whole mix, for its database part and for the unknown-value fallback.
import { ThrottlingException } from '@aws-sdk/client-dynamodb';
import { classifyError } from '@faultline/instrumentation';
import { Metadata, status } from '@grpc/grpc-js';
import { callErrorFromStatus } from '@grpc/grpc-js/build/src/call.js';
import { ReplyError } from 'ioredis';
import { MongoServerError } from 'mongodb';
import OpenAI from 'openai';
import pg from 'pg';
import { RequestError } from 'tedious';
import { errors } from 'undici';
import { measureRate } from './measure-rate.mjs';

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

function measure(name, set, ctx) {
  return measureRate(`classifyError ${name.padEnd(34)}`, set, (err) =>
    classifyError(err, ctx).retryable ? 1 : 0,
  );
}

const mixed = [...db, ...other, ...unknown];
const overall = measure('mixed (db, network, sdk, unknown)', mixed);
measure('database drivers only', db);
measure('unknown values (fallback)', unknown);
// Per CPU-second, like the HTTP bench: wall time on a shared machine measures the neighbours.
const target = 600_000;
console.log(
  `target >= ${target.toLocaleString('en-US')} calls per CPU-second on the mixed set: ${overall.perCpuSec >= target ? 'met' : 'NOT met'}`,
);

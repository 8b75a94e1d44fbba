import { ThrottlingException } from '@aws-sdk/client-dynamodb';
import { Metadata, status } from '@grpc/grpc-js';
import { callErrorFromStatus } from '@grpc/grpc-js/build/src/call.js';
import { classifyError } from './src/error/classify-error.ts';
import { ReplyError } from 'ioredis';
import { MongoServerError } from 'mongodb';
import OpenAI from 'openai';
import pg from 'pg';
import { RequestError } from 'tedious';
import { errors } from 'undici';
const pgError = (code, message) => Object.assign(new pg.DatabaseError(message, 100, 'error'), { severity: 'ERROR', code, routine: 'x' });
const mysqlError = (errno, code, sqlState, message) => Object.assign(new Error(message), { code, errno, sqlState, sqlMessage: message });
const system = (code) => Object.assign(new Error(`connect ${code} 10.0.0.1:443`), { errno: -111, code, syscall: 'connect' });
const set = {
  pg: pgError('40P01', 'deadlock detected'),
  mysql: mysqlError(1213, 'ER_LOCK_DEADLOCK', '40001', 'Deadlock found'),
  mssql: Object.assign(new RequestError('Transaction was deadlocked', 'EREQUEST'), { number: 1205, state: 51, class: 13 }),
  redis: new ReplyError('WRONGTYPE Operation against a key holding the wrong kind of value'),
  mongo: new MongoServerError({ ok: 0, code: 112, codeName: 'WriteConflict', errmsg: 'Write conflict', errorLabels: ['TransientTransactionError'] }),
  econn: system('ECONNREFUSED'),
  fetch: new TypeError('fetch failed', { cause: system('ECONNREFUSED') }),
  undici: new errors.HeadersTimeoutError(),
  aws: new ThrottlingException({ message: 'Rate exceeded', $metadata: { httpStatusCode: 400, requestId: 'R1' } }),
  grpc: callErrorFromStatus({ code: status.UNAVAILABLE, details: 'No connection established', metadata: new Metadata() }, ''),
  openai: OpenAI.APIError.generate(429, { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded', param: null } }, undefined, new Headers({ 'retry-after': '2' })),
  status404: Object.assign(new Error('Not Found'), { status: 404 }),
  plain: new Error('something odd'),
  str: 'a thrown string',
};
for (const [k, v] of Object.entries(set)) {
  for (let i = 0; i < 20000; i++) classifyError(v);
  const n = 100000; const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) classifyError(v);
  const ns = Number(process.hrtime.bigint() - t) / n;
  console.log(k.padEnd(10), ns.toFixed(0), 'ns');
}

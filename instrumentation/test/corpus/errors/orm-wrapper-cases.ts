import { Redis } from 'ioredis';
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { ErrorCase } from '../corpus-case.js';
import { dynamoErrorAt } from './real-dynamodb.js';
import { closedPort } from './real-network.js';
import { pgDatabaseError } from './wire-errors.js';

const NO = { retryable: false, retry_after: null } as const;

/** Prisma src/runtime/core/errors/PrismaClientKnownRequestError.ts (name set, code "P2xxx", meta). */
class PrismaClientKnownRequestError extends Error {
  code: string;
  meta?: Record<string, unknown>;
  declare clientVersion: string;
  constructor(
    message: string,
    { code, clientVersion, meta }: { code: string; clientVersion: string; meta?: Record<string, unknown> },
  ) {
    super(message);
    this.name = 'PrismaClientKnownRequestError';
    this.code = code;
    this.meta = meta;
    Object.defineProperty(this, 'clientVersion', { writable: true, enumerable: false, value: clientVersion });
  }
}

/** Prisma PrismaClientInitializationError (errorCode "P1xxx"). */
class PrismaClientInitializationError extends Error {
  errorCode?: string;
  declare clientVersion: string;
  constructor(message: string, clientVersion: string, errorCode?: string) {
    super(message);
    this.name = 'PrismaClientInitializationError';
    this.errorCode = errorCode;
    Object.defineProperty(this, 'clientVersion', { writable: true, enumerable: false, value: clientVersion });
  }
}

/** TypeORM src/error/QueryFailedError.ts: copies every driver field except name; keeps driverError. */
class QueryFailedError extends Error {
  constructor(
    readonly query: string,
    readonly parameters: unknown[] | undefined,
    readonly driverError: Error,
  ) {
    super(
      driverError
        .toString()
        .replace(/^error: /, '')
        .replace(/^Error: /, ''),
    );
    this.name = 'QueryFailedError';
    const { name: _name, ...other } = driverError as Error & Record<string, unknown>;
    Object.assign(this, other);
  }
}

/** Sequelize lib/errors: BaseError sets name; DatabaseError keeps the driver error as `parent` and `original`. */
function sequelizeError(name: string, message: string, parent: Error): Error {
  return Object.assign(new Error(message), {
    name,
    parent,
    original: parent,
    sql: 'INSERT INTO "users" ...',
  });
}

/** kafkajs src/errors.js: KafkaJSError carries `retriable`; protocol errors add type and code. */
class KafkaJSProtocolError extends Error {
  retriable: boolean;
  type: string;
  code: number;
  constructor(e: { message: string; type: string; code: number; retriable: boolean }) {
    super(e.message);
    this.name = 'KafkaJSProtocolError';
    this.retriable = e.retriable;
    this.type = e.type;
    this.code = e.code;
  }
}

async function rejected(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

const prisma = 'Prisma 5/6 error reference, https://www.prisma.io/docs/orm/reference/error-reference';

/** ORMs and clients that wrap a driver error, and real connection refusals from each installed driver. */
export const ormWrapperCases: ErrorCase[] = [
  {
    id: 'prisma-p2002-unique',
    origin: `${prisma} (P2002 Unique constraint failed)`,
    build: () =>
      new PrismaClientKnownRequestError('Unique constraint failed on the fields: (`email`)', {
        code: 'P2002',
        clientVersion: '6.1.0',
        meta: { modelName: 'User', target: ['email'] },
      }),
    expected: { class: 'validation', code: 'P2002', ...NO },
  },
  {
    id: 'prisma-p2034-write-conflict',
    origin: `${prisma} (P2034 "Transaction failed due to a write conflict or a deadlock. Please retry your transaction")`,
    build: () =>
      new PrismaClientKnownRequestError(
        'Transaction failed due to a write conflict or a deadlock. Please retry your transaction',
        {
          code: 'P2034',
          clientVersion: '6.1.0',
        },
      ),
    expected: { class: 'transient', code: 'P2034', retryable: true },
  },
  {
    id: 'prisma-p2025-record-not-found',
    origin: `${prisma} (P2025 record required but not found)`,
    build: () =>
      new PrismaClientKnownRequestError(
        'An operation failed because it depends on one or more records that were required but not found.',
        {
          code: 'P2025',
          clientVersion: '6.1.0',
          meta: { cause: 'Record to update not found.' },
        },
      ),
    expected: { class: 'permanent', code: 'P2025', ...NO },
  },
  {
    id: 'prisma-p1001-cannot-reach-database',
    origin: `${prisma} (P1001 Can't reach database server)`,
    build: () =>
      new PrismaClientInitializationError(
        "Can't reach database server at `db.internal:5432`\n\nPlease make sure your database server is running at `db.internal:5432`.",
        '6.1.0',
        'P1001',
      ),
    expected: { class: 'transient', retryable: true },
  },
  {
    id: 'typeorm-query-failed-unique',
    origin:
      'TypeORM src/error/QueryFailedError.ts wrapping a pg DatabaseError (fields copied, driverError kept)',
    secrets: ['h6TypeormParamPa55'],
    build: () =>
      new QueryFailedError(
        'INSERT INTO "user"("email", "password") VALUES ($1, $2)',
        ['a@b.c', 'h6TypeormParamPa55'],
        pgDatabaseError({
          S: 'ERROR',
          V: 'ERROR',
          C: '23505',
          M: 'duplicate key value violates unique constraint "UQ_user_email"',
        }),
      ),
    expected: { class: 'validation', code: '23505', ...NO },
  },
  {
    id: 'typeorm-query-failed-deadlock',
    origin: 'TypeORM QueryFailedError wrapping a pg 40P01',
    build: () =>
      new QueryFailedError(
        'UPDATE "stock" SET qty = qty - 1',
        [],
        pgDatabaseError({ S: 'ERROR', V: 'ERROR', C: '40P01', M: 'deadlock detected' }),
      ),
    expected: { class: 'transient', code: '40P01', retryable: true, retry_after: 0 },
  },
  {
    id: 'sequelize-unique-constraint-parent',
    origin: 'Sequelize lib/errors/validation/unique-constraint-error.js (parent/original = driver error)',
    build: () =>
      sequelizeError(
        'SequelizeUniqueConstraintError',
        'Validation error',
        pgDatabaseError({
          S: 'ERROR',
          V: 'ERROR',
          C: '23505',
          M: 'duplicate key value violates unique constraint "users_email_key"',
        }),
      ),
    expected: { class: 'validation', retryable: false, retry_after: null },
  },
  {
    id: 'sequelize-database-error-serialization',
    origin: 'Sequelize lib/errors/database-error.js (parent = pg 40001)',
    build: () =>
      sequelizeError(
        'SequelizeDatabaseError',
        'could not serialize access due to concurrent update',
        pgDatabaseError({
          S: 'ERROR',
          V: 'ERROR',
          C: '40001',
          M: 'could not serialize access due to concurrent update',
        }),
      ),
    expected: { class: 'transient', retryable: true },
  },
  {
    id: 'error-cause-chain-three-deep',
    origin: 'ES2022 Error cause (app error → fetch failed → ECONNRESET), as wrapped by typical service code',
    build: () => {
      const sys = Object.assign(new Error('read ECONNRESET'), {
        code: 'ECONNRESET',
        errno: -104,
        syscall: 'read',
      });
      return new Error('failed to load pricing', { cause: new TypeError('fetch failed', { cause: sys }) });
    },
    expected: { class: 'transient', retryable: true },
  },
  {
    id: 'kafkajs-not-leader-retriable',
    origin:
      'kafkajs src/errors.js + src/protocol/error.js (NOT_LEADER_FOR_PARTITION, code 6, retriable true)',
    build: () =>
      new KafkaJSProtocolError({
        message: 'This server is not the leader for that topic-partition',
        type: 'NOT_LEADER_FOR_PARTITION',
        code: 6,
        retriable: true,
      }),
    expected: { class: 'transient', retryable: true },
  },
  {
    id: 'kafkajs-topic-authorization-failed',
    origin: 'kafkajs src/protocol/error.js (TOPIC_AUTHORIZATION_FAILED, code 29, retriable false)',
    build: () =>
      new KafkaJSProtocolError({
        message: 'Not authorized to access topics: [Topic authorization failed]',
        type: 'TOPIC_AUTHORIZATION_FAILED',
        code: 29,
        retriable: false,
      }),
    expected: { class: 'authentication', retryable: false, retry_after: null },
  },
  {
    id: 'aws-sdk-credentials-provider-error',
    origin:
      '@smithy/property-provider CredentialsProviderError ("Could not load credentials from any providers")',
    build: () =>
      Object.assign(new Error('Could not load credentials from any providers'), {
        name: 'CredentialsProviderError',
        tryNextLink: false,
      }),
    expected: { class: 'authentication', retryable: false, retry_after: null },
  },
  {
    id: 'aws-sdk-node-http-handler-timeout',
    origin:
      '@smithy/node-http-handler dist-cjs/index.js (Object.assign(new Error(...), { name: "TimeoutError" })); smithy TRANSIENT_ERROR_CODES',
    build: () =>
      Object.assign(
        new Error(
          '@smithy/node-http-handler - the request socket timed out after 30000 ms of inactivity (configured by client requestHandler).',
        ),
        { name: 'TimeoutError' },
      ),
    expected: { class: 'transient', retryable: true },
  },
  {
    id: 'aws-sdk-real-econnrefused',
    origin:
      '@aws-sdk/client-dynamodb 3.1169.0 real client → closed port (Node ECONNREFUSED with $metadata attached)',
    build: async () => dynamoErrorAt(await closedPort()),
    expected: { class: 'transient', code: 'ECONNREFUSED', retryable: true },
  },
  {
    id: 'pg-real-connect-econnrefused',
    origin: 'pg 8.23 real client → closed port',
    build: async () =>
      rejected(new pg.Client({ host: '127.0.0.1', port: await closedPort(), user: 'postgres' }).connect()),
    ctx: { system: 'postgresql' },
    expected: { class: 'transient', code: 'ECONNREFUSED', retryable: true },
  },
  {
    id: 'pg-connection-terminated-unexpectedly',
    origin: 'pg 8.23 lib/client.js:204 (plain Error on socket end, no code)',
    build: () => new Error('Connection terminated unexpectedly'),
    ctx: { system: 'postgresql' },
    expected: { class: 'transient', retryable: true },
  },
  {
    id: 'pg-pool-connect-timeout',
    origin: 'pg-pool index.js:224 ("timeout exceeded when trying to connect")',
    build: () => new Error('timeout exceeded when trying to connect'),
    ctx: { system: 'postgresql' },
    expected: { class: 'transient', retryable: true },
  },
  {
    id: 'mysql2-real-connect-econnrefused',
    origin: 'mysql2 3.24 real createConnection → closed port (fatal: true)',
    build: async () =>
      rejected(mysql.createConnection({ host: '127.0.0.1', port: await closedPort(), user: 'root' })),
    ctx: { system: 'mysql' },
    expected: { class: 'transient', code: 'ECONNREFUSED', retryable: true },
  },
  {
    id: 'ioredis-real-connect-econnrefused',
    origin:
      'ioredis 6 real client → closed port (lazyConnect, retryStrategy null: rejects with "Connection is closed.")',
    build: async () => {
      const redis = new Redis({
        host: '127.0.0.1',
        port: await closedPort(),
        lazyConnect: true,
        retryStrategy: () => null,
      });
      redis.on('error', () => {});
      try {
        return await rejected(redis.connect());
      } finally {
        redis.disconnect();
      }
    },
    ctx: { system: 'redis' },
    expected: { class: 'transient', retryable: true },
  },
];

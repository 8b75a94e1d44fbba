import type { ErrorCase, Expected } from '../corpus-case.js';
import { MongoNetworkError, MongoServerError, MongoServerSelectionError } from './mongodb-errors.js';

const MONGO = 'mongodb 6.x src/error.ts MongoServerError (errorLabels behind a Symbol, exposed by a getter)';
const MONGO_RETRY =
  'MongoDB retryable writes spec, https://github.com/mongodb/specifications/blob/master/source/retryable-writes/retryable-writes.md#determining-retryable-errors';

const NO = { retryable: false, retry_after: null } as const;

const mongoCase = (
  id: string,
  doc: Record<string, unknown>,
  expected: Expected,
  opts: Partial<ErrorCase> = {},
): ErrorCase => ({
  id: `mongo-${id}`,
  origin: `${MONGO}; codes https://www.mongodb.com/docs/manual/reference/error-codes/`,
  build: () => new MongoServerError({ ok: 0, ...doc }),
  expected,
  ...opts,
});

/** MongoDB server codes and errorLabels, and driver network/selection errors. */
export const mongodbCases: ErrorCase[] = [
  mongoCase(
    'duplicate-key-11000',
    {
      code: 11000,
      codeName: 'DuplicateKey',
      errmsg: 'E11000 duplicate key error collection: shop.users index: email_1 dup key: { email: "a@b.c" }',
      keyPattern: { email: 1 },
      keyValue: { email: 'a@b.c' },
    },
    { class: 'validation', code: '11000', ...NO },
  ),
  mongoCase(
    'write-conflict-transient-transaction',
    {
      code: 112,
      codeName: 'WriteConflict',
      errmsg: 'Write conflict during plan execution and yielding is disabled.',
      errorLabels: ['TransientTransactionError'],
    },
    { class: 'transient', code: '112', retryable: true },
    {
      origin: `${MONGO}; transactions spec https://www.mongodb.com/docs/manual/core/transactions-in-applications/#transienttransactionerror`,
    },
  ),
  mongoCase(
    'not-writable-primary-retryable-write',
    {
      code: 10107,
      codeName: 'NotWritablePrimary',
      errmsg: 'not primary',
      errorLabels: ['RetryableWriteError'],
    },
    { class: 'transient', code: '10107', retryable: true },
    { origin: `${MONGO}; ${MONGO_RETRY}` },
  ),
  mongoCase(
    'primary-stepped-down-189',
    {
      code: 189,
      codeName: 'PrimarySteppedDown',
      errmsg: 'Primary stepped down while waiting for replication',
    },
    { class: 'transient', code: '189', retryable: true },
    { origin: `${MONGO}; ${MONGO_RETRY} (189 is in the retryable code list)` },
  ),
  mongoCase(
    'shutdown-in-progress-91',
    {
      code: 91,
      codeName: 'ShutdownInProgress',
      errmsg: 'The server is in quiesce mode and will shut down',
      errorLabels: ['RetryableWriteError'],
    },
    { class: 'transient', code: '91', retryable: true },
  ),
  mongoCase(
    'unknown-code-with-retryable-label',
    {
      code: 999999,
      codeName: 'SomeFutureCode',
      errmsg: 'something new',
      errorLabels: ['RetryableWriteError'],
    },
    { class: 'transient', retryable: true },
    {
      note: 'The server label is the documented retry signal, whatever the code.',
      origin: `${MONGO}; ${MONGO_RETRY}`,
    },
  ),
  mongoCase(
    'authentication-failed-18',
    { code: 18, codeName: 'AuthenticationFailed', errmsg: 'Authentication failed.' },
    { class: 'authentication', code: '18', ...NO },
  ),
  mongoCase(
    'unauthorized-13',
    {
      code: 13,
      codeName: 'Unauthorized',
      errmsg: 'not authorized on shop to execute command { insert: "orders" }',
    },
    { class: 'authentication', code: '13', ...NO },
  ),
  mongoCase(
    'document-validation-121',
    {
      code: 121,
      codeName: 'DocumentValidationFailure',
      errmsg: 'Document failed validation',
      errInfo: { failingDocumentId: 1 },
    },
    { class: 'validation', code: '121', ...NO },
  ),
  mongoCase(
    'max-time-ms-expired-50',
    { code: 50, codeName: 'MaxTimeMSExpired', errmsg: 'operation exceeded time limit' },
    { class: 'transient', code: '50', retryable: true },
  ),
  mongoCase(
    'cosmos-16500-request-rate-large',
    {
      code: 16500,
      codeName: 'RequestRateTooLarge',
      errmsg:
        "Error=16500, RetryAfterMs=72, Details='Response status code does not indicate success: TooManyRequests (429); Substatus: 3200; ActivityId: 1a2b'",
    },
    { class: 'rate_limit', retryable: true },
    {
      origin:
        'Azure Cosmos DB for MongoDB docs, https://learn.microsoft.com/azure/cosmos-db/mongodb/prevent-rate-limiting-errors (16500)',
    },
  ),
  {
    id: 'mongo-network-error-reset-pool',
    origin:
      'mongodb 6.x src/error.ts MongoNetworkError (labels ResetPool/RetryableWriteError added by the pool)',
    build: () => {
      const err = new MongoNetworkError('connection 3 to 10.0.0.8:27017 closed');
      err.addErrorLabel('ResetPool');
      err.addErrorLabel('RetryableWriteError');
      return err;
    },
    ctx: { system: 'mongodb' },
    expected: { class: 'transient', retryable: true },
  },
  {
    id: 'mongo-server-selection-econnrefused',
    origin: 'mongodb 6.x src/error.ts MongoServerSelectionError (reason: TopologyDescription)',
    build: () =>
      new MongoServerSelectionError('connect ECONNREFUSED 127.0.0.1:27017', {
        type: 'Unknown',
        servers: new Map([
          [
            '127.0.0.1:27017',
            {
              address: '127.0.0.1:27017',
              type: 'Unknown',
              error: new MongoNetworkError('connect ECONNREFUSED 127.0.0.1:27017'),
            },
          ],
        ]),
      }),
    ctx: { system: 'mongodb' },
    expected: { class: 'transient', retryable: true },
  },
  {
    id: 'mongo-network-timeout-error',
    origin: 'mongodb 6.x src/error.ts MongoNetworkTimeoutError (extends MongoNetworkError)',
    build: () => {
      class MongoNetworkTimeoutError extends MongoNetworkError {
        override get name(): string {
          return 'MongoNetworkTimeoutError';
        }
      }
      return new MongoNetworkTimeoutError('connection 4 to 10.0.0.8:27017 timed out');
    },
    ctx: { system: 'mongodb' },
    expected: { class: 'transient', retryable: true },
  },
];

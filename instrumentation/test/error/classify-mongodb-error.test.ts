import { MongoNetworkError, MongoServerError, MongoServerSelectionError } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { classifyError } from '../../src/error/classify-error.js';
import type { ErrorClass } from '../../src/types.js';

function serverError(code: number, codeName: string, errorLabels: string[] = []): MongoServerError {
  return new MongoServerError({ ok: 0, code, codeName, errmsg: `${codeName} happened`, errorLabels });
}

describe('classifyError: MongoDB (official driver classes)', () => {
  it.each<[number, string, ErrorClass]>([
    [11000, 'DuplicateKey', 'validation'],
    [112, 'WriteConflict', 'transient'],
    [50, 'MaxTimeMSExpired', 'transient'],
    [13, 'Unauthorized', 'authentication'],
    [18, 'AuthenticationFailed', 'authentication'],
    [91, 'ShutdownInProgress', 'transient'],
    [189, 'PrimarySteppedDown', 'transient'],
    [10107, 'NotWritablePrimary', 'transient'],
    [13435, 'NotPrimaryNoSecondaryOk', 'transient'],
    [11600, 'InterruptedAtShutdown', 'transient'],
    [11602, 'InterruptedDueToReplStateChange', 'transient'],
    [121, 'DocumentValidationFailure', 'validation'],
    [26, 'NamespaceNotFound', 'permanent'],
    [9999, 'SomethingNew', 'permanent'],
  ])('%i %s → %s', (code, codeName, cls) => {
    const env = classifyError(serverError(code, codeName));
    expect(env).toMatchObject({ class: cls, code: String(code), source: 'db' });
    expect(env.raw).toMatchObject({ name: 'MongoServerError', code, codeName });
  });

  it('lets a TransientTransactionError label beat the code, with an immediate replay', () => {
    const env = classifyError(serverError(251, 'NoSuchTransaction', ['TransientTransactionError']));
    expect(env).toMatchObject({ class: 'transient', code: '251', retry_after: 0 });
    expect(env.raw).toMatchObject({ errorLabels: ['TransientTransactionError'] });
  });

  it('treats RetryableWriteError on an otherwise unknown code as transient', () => {
    expect(classifyError(serverError(9999, 'Odd', ['RetryableWriteError']))).toMatchObject({
      class: 'transient',
    });
  });

  it('classifies driver-side network and selection errors by name', () => {
    expect(classifyError(new MongoNetworkError('connection 1 to 127.0.0.1:27017 closed'))).toMatchObject({
      class: 'transient',
      code: 'MongoNetworkError',
      source: 'db',
    });
    // The driver passes the TopologyDescription it gave up on; only its `error` is read.
    const topology = { type: 'Unknown', servers: new Map(), error: null } as unknown as ConstructorParameters<
      typeof MongoServerSelectionError
    >[1];
    const selection = new MongoServerSelectionError('Server selection timed out after 30000 ms', topology);
    expect(classifyError(selection)).toMatchObject({
      class: 'transient',
      code: 'MongoServerSelectionError',
    });
  });
});

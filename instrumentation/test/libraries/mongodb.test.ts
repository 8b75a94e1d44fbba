import { MongoClient, MongoNetworkError, MongoServerError, MongoWriteConcernError } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { classifyError } from '../../src/error/classify-error.js';
import { freePort, rejectionOf } from './helpers.js';

// No MongoDB server can run here. Server selection against a closed port is real; server
// replies use the driver's own classes, built from the reply documents the server sends
// (code/codeName from the server's error_codes.yml, labels as the server attaches them).
const ctx = { system: 'mongodb' } as const;

describe('mongodb driver errors', () => {
  it('server selection against a closed port → ECONNREFUSED beneath MongoServerSelectionError', async () => {
    const client = new MongoClient(`mongodb://127.0.0.1:${await freePort()}/?serverSelectionTimeoutMS=200`);
    try {
      const err = await rejectionOf(client.connect());
      // No server reachable: the socket code names it, like every driver's.
      expect(classifyError(err, ctx)).toMatchObject({
        class: 'transient',
        code: 'ECONNREFUSED',
        source: 'db',
        retryable: true,
      });
    } finally {
      await client.close();
    }
  });

  it('E11000 duplicate key → 11000 validation', () => {
    const err = new MongoServerError({
      ok: 0,
      code: 11000,
      codeName: 'DuplicateKey',
      errmsg: 'E11000 duplicate key error',
    });
    // The document must change.
    expect(classifyError(err, ctx)).toMatchObject({ class: 'validation', code: '11000', retryable: false });
  });

  it('AuthenticationFailed → 18 authentication', () => {
    const err = new MongoServerError({
      ok: 0,
      code: 18,
      codeName: 'AuthenticationFailed',
      errmsg: 'Authentication failed.',
    });
    expect(classifyError(err, ctx)).toMatchObject({ class: 'authentication', code: '18' });
  });

  it('an unknown code labelled RetryableWriteError → transient (the label decides)', () => {
    const err = new MongoServerError({
      ok: 0,
      code: 91,
      codeName: 'ShutdownInProgress',
      errmsg: 'The server is in quiesce mode and will shut down',
      errorLabels: ['RetryableWriteError'],
    });
    // The server says a retry of this write can succeed (on the new primary).
    expect(classifyError(err, ctx)).toMatchObject({ class: 'transient', code: '91', retryable: true });
  });

  it('write concern timeout → 64 transient', () => {
    const err = new MongoWriteConcernError({
      ok: 1,
      writeConcernError: {
        code: 64,
        codeName: 'WriteConcernFailed',
        errmsg: 'waiting for replication timed out',
      },
    });
    // Replication was slow; the write may be retried (idempotently).
    expect(classifyError(err, ctx)).toMatchObject({ class: 'transient', code: '64' });
  });

  it('a network error with no socket code beneath keeps its name', () => {
    const err = new MongoNetworkError('connection 1 to 127.0.0.1:27017 closed');
    expect(classifyError(err, ctx)).toMatchObject({ class: 'transient', code: 'MongoNetworkError' });
  });
});

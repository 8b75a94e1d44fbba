import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { classifyError } from '../../src/error/classify-error.js';
import { closedPort, rejectionOf } from './closed-port.js';

describe('connection refused through fetch and node:http', () => {
  it('fetch: TypeError "fetch failed" classified by its cause', async () => {
    const port = await closedPort();
    const err = await rejectionOf(fetch(`http://127.0.0.1:${port}/`));
    const env = classifyError(err);
    expect(env).toMatchObject({ class: 'transient', code: 'ECONNREFUSED', source: 'http', retryable: true });
    expect(env.message).toMatch(/^fetch failed: .*ECONNREFUSED/);
  });

  it('fetch to localhost (both address families tried) still yields ECONNREFUSED', async () => {
    const port = await closedPort();
    const err = await rejectionOf(fetch(`http://localhost:${port}/`));
    expect(classifyError(err)).toMatchObject({ class: 'transient', code: 'ECONNREFUSED', source: 'http' });
  });

  it('node:http: the request error event', async () => {
    const port = await closedPort();
    const err = await new Promise<unknown>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/' }, () =>
        reject(new Error('unexpected response')),
      );
      req.on('error', resolve);
      req.end();
    });
    expect(classifyError(err, { source: 'http' })).toMatchObject({
      class: 'transient',
      code: 'ECONNREFUSED',
      source: 'http',
    });
  });
});

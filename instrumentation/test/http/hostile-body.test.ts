import { describe, expect, it } from 'vitest';
import { classifyHttpResponse } from '../../src/index.js';

// Bodies built by callers (not parsed JSON) may carry getters or Proxies that throw; the status
// must still classify the response and nothing may throw into the caller's error path.
describe('classifyHttpResponse with hostile bodies', () => {
  class ThrowingBody {
    get error(): never {
      throw new Error('getter exploded');
    }
  }
  // A factory, so the test runner never inspects the Proxy itself when naming the cases.
  const throwingProxy = (): object =>
    new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('ownKeys exploded');
        },
        get() {
          throw new Error('get exploded');
        },
      },
    );

  it.each<[string, () => object, number, string]>([
    ['class instance with a throwing getter', () => new ThrowingBody(), 500, 'transient'],
    ['proxy that throws on every read', throwingProxy, 502, 'transient'],
    [
      'plain object with a throwing getter',
      () => ({
        get code(): never {
          throw new Error('x');
        },
      }),
      429,
      'rate_limit',
    ],
  ])('%s on %i falls back to the status', (_name, makeBody, status, cls) => {
    const envelope = classifyHttpResponse({ status, body: makeBody() });
    expect(envelope?.class).toBe(cls);
    expect(envelope?.code).toBe(String(status));
    expect(() => JSON.stringify(envelope)).not.toThrow();
  });

  it('a 2xx with an unreadable body is not a failure', () => {
    expect(classifyHttpResponse({ status: 200, body: throwingProxy() })).toBeNull();
  });
});

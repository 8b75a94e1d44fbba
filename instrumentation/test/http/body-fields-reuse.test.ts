import { describe, expect, it } from 'vitest';
import { classifyHttpResponse } from '../../src/index.js';

// The members a JSON body is read into are reused from call to call. A getter inside a body can
// classify another response while the outer one is being read: neither may see the other's
// members, and a body read after a throwing one must start from clean members.
describe('classifyHttpResponse reads each body on its own', () => {
  const inner = {
    status: 429,
    headers: { 'retry-after': '3' },
    body: { error: { code: 'rate_limit_exceeded', message: 'Slow down', type: 'requests' } },
  };
  const outerBody = (getter: () => unknown) => ({
    error: {
      code: 'card_declined',
      get message() {
        getter();
        return 'Your card was declined.';
      },
      type: 'card_error',
    },
    request_id: 'req_9',
  });
  const plainOuter = {
    error: { code: 'card_declined', message: 'Your card was declined.', type: 'card_error' },
    request_id: 'req_9',
  };

  it('a classification inside a body getter changes neither result', () => {
    const alone = classifyHttpResponse({ status: 402, headers: {}, body: plainOuter });
    const innerAlone = classifyHttpResponse(inner);
    let nested: unknown;
    const outer = classifyHttpResponse({
      status: 402,
      headers: {},
      body: outerBody(() => {
        nested = classifyHttpResponse(inner);
      }),
    });
    expect(nested).toEqual(innerAlone);
    expect(outer).toEqual(alone);
  });

  it('a body whose getter throws leaves nothing behind for the next body', () => {
    const throwing = {
      status: 400,
      headers: {},
      body: {
        error: {
          code: 'rate_limit_exceeded',
          get message(): string {
            throw new Error('boom');
          },
        },
      },
    };
    classifyHttpResponse(throwing);
    const after = classifyHttpResponse({
      status: 400,
      headers: {},
      body: { error: { message: 'bad field' } },
    });
    expect(after?.class).toBe('validation');
    expect(after?.code).toBe('400');
    expect(after?.message).toBe('bad field');
  });
});

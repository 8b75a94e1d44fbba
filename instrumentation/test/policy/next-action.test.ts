import { describe, expect, it } from 'vitest';
import {
  isRemedy,
  isTerminal,
  type NextAction,
  nextActionOf,
  nextActionVerdict,
  toolHelperKind,
} from '../../src/policy/next-action.js';

const follow = (over: Partial<Parameters<typeof nextActionOf>[0]>) =>
  nextActionOf({
    later: 1,
    found: true,
    sameTool: true,
    refreshed: false,
    sameArgs: true,
    waitedS: 0,
    retryAfter: null,
    ...over,
  });

describe('the next action after a failed tool call', () => {
  it.each([
    [{ later: 0 }, 'stop'],
    [{ found: false }, 'other_tool'], // only helpers followed (a refresh, then nothing)
    [{ sameTool: false }, 'other_tool'],
    [{ refreshed: true, sameArgs: false }, 'refresh_repeat'],
    [{ sameArgs: false }, 'changed_repeat'],
    [{ retryAfter: 2, waitedS: 2.1 }, 'wait_repeat'],
    [{ retryAfter: 2, waitedS: 0.3 }, 'identical_repeat'],
    [{ retryAfter: null, waitedS: 30 }, 'identical_repeat'],
  ] as const)('%o → %s', (over, action) => {
    expect(follow(over)).toBe(action);
  });

  it('knows refresh-like and wait-like tools by name', () => {
    expect(['refresh_token', 'login', 'reauthenticate', 'getAuthToken', 'oauth'].map(toolHelperKind)).toEqual(
      Array(5).fill('refresh'),
    );
    expect(['wait', 'sleep', 'backoff_ms'].map(toolHelperKind)).toEqual(Array(3).fill('wait'));
    expect(['author_lookup', 'tokenize', 'get_quote'].map(toolHelperKind)).toEqual(['', '', '']);
  });
});

describe('the verdict against the class’s policy', () => {
  const v = (
    cls: string,
    action: NextAction,
    o: { same?: boolean; covered?: boolean; remedies?: number } = {},
  ) => nextActionVerdict(cls, action, o.same ?? true, o.covered ?? true, o.remedies ?? 0);

  it('validation: repair the arguments once', () => {
    expect(v('validation', 'changed_repeat', { same: false })).toBe('right');
    expect(v('validation', 'changed_repeat', { same: false, remedies: 1 })).toBe('wrong');
    expect(v('validation', 'identical_repeat')).toBe('wrong');
    expect(v('validation', 'stop')).toBe('none');
    expect(isRemedy('validation', 'changed_repeat', false)).toBe(true);
  });

  it('authentication: refresh once, then escalate', () => {
    expect(v('authentication', 'refresh_repeat')).toBe('right');
    expect(v('authentication', 'refresh_repeat', { remedies: 1 })).toBe('wrong');
    expect(v('authentication', 'identical_repeat')).toBe('wrong');
    expect(v('authentication', 'stop', { remedies: 1 })).toBe('right');
    expect(v('authentication', 'stop')).toBe('none');
  });

  it('rate_limit: wait retry_after, then retry', () => {
    expect(v('rate_limit', 'wait_repeat')).toBe('right');
    expect(v('rate_limit', 'identical_repeat', { covered: false })).toBe('wrong');
    expect(v('rate_limit', 'other_tool')).toBe('none');
  });

  it('transient: back off and retry; a missing retry is not following it', () => {
    expect(v('transient', 'identical_repeat')).toBe('right');
    expect(v('transient', 'identical_repeat', { covered: false })).toBe('wrong');
    expect(v('transient', 'stop')).toBe('wrong');
    expect(v('transient', 'other_tool')).toBe('wrong');
  });

  it('permanent: never repeat the identical call', () => {
    expect(v('permanent', 'identical_repeat')).toBe('wrong');
    expect(v('permanent', 'wait_repeat')).toBe('wrong');
    expect(v('permanent', 'changed_repeat', { same: false })).toBe('right');
    expect(v('permanent', 'other_tool')).toBe('right');
    expect(v('permanent', 'stop')).toBe('right');
  });

  it('terminal failures are what the guards refuse to repeat', () => {
    expect(isTerminal({ class: 'permanent', retryable: false })).toBe(true);
    expect(isTerminal({ class: 'permanent', retryable: true })).toBe(false);
    expect(isTerminal({ class: 'rate_limit', retryable: true })).toBe(false);
  });
});

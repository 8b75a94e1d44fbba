import type { ErrorClass } from '../types.js';

/**
 * What an agent did after one of its tool calls failed, and whether that followed the failure's
 * class (CLASS_ACTIONS; retry-decision.ts acts on the same five). One home for the judgement, with
 * SQL twins in sql/schema/007_agent_rules.sql that agent_actions (070) applies to stored spans
 * (parity: sql/test/counting/agent-rules-parity.test.ts), and the enforcement wrappers (tool/)
 * apply in the loop.
 *
 * The next action is the first tool call of the same run (trace) that started after the failed
 * call ended and is the same tool or not a helper: refresh-like and wait-like tools (toolHelperKind)
 * are steps towards a repeat, not a different plan.
 */
export type NextAction =
  /** The same tool with the same arguments, not after a refresh, not after waiting retry_after out. */
  | 'identical_repeat'
  /** The same tool with other arguments. */
  | 'changed_repeat'
  /** The same tool after a refresh-like tool (a new credential). */
  | 'refresh_repeat'
  /** The same tool with the same arguments after waiting at least the failure's retry_after. */
  | 'wait_repeat'
  /** Another tool: a new plan. */
  | 'other_tool'
  /** No further tool call in the run. */
  | 'stop';

/** `right`: the class's policy followed; `wrong`: not; `none`: the policy says nothing about it. */
export type ActionVerdict = 'right' | 'wrong' | 'none';

export type ToolHelperKind = 'refresh' | 'wait' | '';

/**
 * Tool names that renew a credential or wait: matched case-insensitively, `auth` not followed by
 * `o` (authorize, authenticate, oauth, but not author), `token` not followed by `i` (tokenize).
 * The same expressions in SQL (RE2).
 */
export const REFRESH_TOOL = 'refresh|login|logon|sign_?in|token([^i]|$)|auth([^o]|$)';
export const WAIT_TOOL = 'wait|sleep|delay|backoff|pause';
const REFRESH_RE = new RegExp(REFRESH_TOOL, 'i');
const WAIT_RE = new RegExp(WAIT_TOOL, 'i');

export function toolHelperKind(tool: string): ToolHelperKind {
  if (REFRESH_RE.test(tool)) return 'refresh';
  if (WAIT_RE.test(tool)) return 'wait';
  return '';
}

/** What follows a failed tool call in its run, as agent_actions reads it from the spans. */
export interface FollowingCalls {
  /** Tool calls that started after the failure ended (helpers included). */
  later: number;
  /** Whether one of them is the same tool or not a helper (the next action's call). */
  found: boolean;
  /** That call is the same tool. */
  sameTool: boolean;
  /** A refresh-like tool ran before it. */
  refreshed: boolean;
  /** It had the failed call's arguments. */
  sameArgs: boolean;
  /** Seconds from the failure's end to that call's start. */
  waitedS: number;
  /** The failure's retry_after. */
  retryAfter: number | null;
}

export function nextActionOf(f: FollowingCalls): NextAction {
  if (f.later === 0) return 'stop';
  if (!f.found || !f.sameTool) return 'other_tool';
  if (f.refreshed) return 'refresh_repeat';
  if (!f.sameArgs) return 'changed_repeat';
  if ((f.retryAfter ?? 0) > 0 && f.waitedS >= (f.retryAfter ?? 0)) return 'wait_repeat';
  return 'identical_repeat';
}

/** Whether the time before the next call covered the failure's retry_after (true when it gave none). */
export function waitCovered(waitedS: number, retryAfter: number | null): boolean {
  return retryAfter === null || waitedS >= retryAfter;
}

function isRepeat(action: NextAction): boolean {
  return action !== 'other_tool' && action !== 'stop';
}

/**
 * The class's one-time remedy: a repair (validation: the same tool with other arguments) or a
 * refresh (authentication). A second one after the same tool failed the same way again is not
 * the policy ("repair once", "refresh once, then escalate").
 */
export function isRemedy(cls: ErrorClass | string, action: NextAction, sameArgs: boolean): boolean {
  return (
    (cls === 'validation' && isRepeat(action) && !sameArgs) ||
    (cls === 'authentication' && action === 'refresh_repeat')
  );
}

/**
 * The verdict on a next action:
 *  - validation → repair the arguments once: a repeat with other arguments is right the first time,
 *    wrong after an earlier repair of the same tool; a repeat as sent is wrong; replanning or
 *    stopping, no verdict.
 *  - authentication → refresh once, then escalate: a repeat after a refresh is right the first
 *    time, wrong after an earlier one; a repeat without a refresh is wrong; stopping after a refresh
 *    that did not help is right (escalation), before one no verdict.
 *  - rate_limit → wait retry_after, then retry: a repeat is right when the wait covered
 *    retry_after (any wait when none was given), wrong when it came early; no verdict otherwise.
 *  - transient → back off and retry: as rate_limit, but not retrying (another tool, stop) is wrong.
 *  - permanent → never repeat the identical call: a repeat as sent is wrong; other arguments,
 *    another tool or stopping is right.
 */
export function nextActionVerdict(
  cls: ErrorClass | string,
  action: NextAction,
  sameArgs: boolean,
  covered: boolean,
  remediesBefore: number,
): ActionVerdict {
  const repeat = isRepeat(action);
  switch (cls) {
    case 'validation':
      if (!repeat) return 'none';
      return !sameArgs && remediesBefore === 0 ? 'right' : 'wrong';
    case 'authentication':
      if (action === 'refresh_repeat') return remediesBefore === 0 ? 'right' : 'wrong';
      if (repeat) return 'wrong';
      return action === 'stop' && remediesBefore > 0 ? 'right' : 'none';
    case 'rate_limit':
      if (!repeat) return 'none';
      return covered ? 'right' : 'wrong';
    case 'transient':
      if (!repeat) return 'wrong';
      return covered ? 'right' : 'wrong';
    case 'permanent':
      if (!repeat) return 'right';
      return sameArgs ? 'wrong' : 'right';
    default:
      return 'none';
  }
}

/**
 * A failure after which an identical repeat cannot succeed: validation, authentication and
 * permanent, unless the server itself said to retry (retryable). What the guards refuse to repeat
 * (an authentication failure only until a refresh-like tool has run).
 */
export function isTerminal(envelope: { class: string; retryable: boolean }): boolean {
  return (
    !envelope.retryable &&
    (envelope.class === 'validation' || envelope.class === 'authentication' || envelope.class === 'permanent')
  );
}

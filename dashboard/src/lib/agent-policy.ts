import type { FailureClass } from './failure-classes';

/**
 * The next action each class asks of an agent after a failed tool call, as agent_actions judges it
 * (sql/schema/007_agent_rules.sql, nextActionVerdict in @faultline/instrumentation).
 */
export const AGENT_POLICY: Record<FailureClass, string> = {
  validation: 'repair the arguments once',
  authentication: 'refresh once, then escalate',
  rate_limit: 'wait retry_after, then retry',
  transient: 'back off and retry',
  permanent: 'never repeat the identical call',
};

export function agentPolicyOf(cls: string): string {
  return (AGENT_POLICY as Record<string, string>)[cls] ?? '';
}

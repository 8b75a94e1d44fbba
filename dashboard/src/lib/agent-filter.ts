import { parsePrintable, type SearchParams, single } from './url-values';

export const VERDICTS = ['right', 'wrong', 'none'] as const;

/** The Agents page's own URL values: one agent (`?agent=`), one verdict of the judgements (`?verdict=`). */
export interface AgentFilter {
  /** '' means every agent. */
  agent: string;
  /** '' means every verdict. */
  verdict: string;
}

/** Throws RangeError with a message that says what to change in the URL. */
export function parseAgentFilter(sp: SearchParams): AgentFilter {
  const verdict = single(sp, 'verdict') ?? '';
  if (verdict !== '' && !(VERDICTS as readonly string[]).includes(verdict))
    throw new RangeError(`"verdict" must be one of ${VERDICTS.join(', ')}, got ${JSON.stringify(verdict)}.`);
  return { agent: parsePrintable(sp, 'agent', 'an agent name'), verdict };
}

import { isTerminal, toolHelperKind } from '../policy/next-action.js';
import type { Envelope } from '../types.js';
import { stableJson } from './stable-json.js';

/** Calls remembered at most; the oldest is forgotten first. */
const MAX_CALLS = 1000;

interface Failed {
  envelope: Envelope;
  /** Refresh-like calls seen when it failed: one more since then lifts an authentication refusal. */
  refreshes: number;
}

/**
 * One agent run's failed tool calls, by tool and arguments, for the guards: which identical
 * repeat to refuse (isTerminal), until the call succeeds or, for an authentication failure, until
 * a refresh-like tool (toolHelperKind) has run. Share one between guardTools and guardMcpClient
 * when one run uses both.
 */
export class ToolCallMemory {
  private readonly failed = new Map<string, Failed>();
  private refreshes = 0;

  /** Notes a call before it runs: a refresh-like tool lifts authentication refusals. */
  calling(tool: string): void {
    if (toolHelperKind(tool) === 'refresh') this.refreshes++;
  }

  /** The terminal failure an identical repeat of this call would meet again, if any. */
  refusal(tool: string, args: unknown): Envelope | undefined {
    const failed = this.failed.get(key(tool, args));
    if (failed === undefined || !isTerminal(failed.envelope)) return undefined;
    if (failed.envelope.class === 'authentication' && this.refreshes > failed.refreshes) return undefined;
    return failed.envelope;
  }

  /** The call's outcome: its failure's envelope, or null when it succeeded (forgets the call). */
  record(tool: string, args: unknown, envelope: Envelope | null): void {
    const k = key(tool, args);
    this.failed.delete(k);
    if (envelope === null) return;
    this.failed.set(k, { envelope, refreshes: this.refreshes });
    if (this.failed.size > MAX_CALLS) {
      const oldest = this.failed.keys().next().value;
      if (oldest !== undefined) this.failed.delete(oldest);
    }
  }
}

function key(tool: string, args: unknown): string {
  return `${tool}\u0000${stableJson(args ?? {})}`;
}

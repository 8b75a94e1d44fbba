import { toModelEnvelope } from '../envelope/to-model-envelope.js';
import type { Envelope, ModelEnvelope } from '../types.js';

/** What a guarded tool hands the model when it failed: the envelope's seven fields. */
export interface ToolFailure {
  ok: false;
  error: ModelEnvelope;
  /** Set when the guard refused to run the call at all, saying why. */
  refused?: string;
}

export function toolFailure(envelope: Envelope): ToolFailure {
  return { ok: false, error: toModelEnvelope(envelope) };
}

export function refusedRepeat(tool: string, envelope: Envelope): ToolFailure {
  return {
    ok: false,
    error: toModelEnvelope(envelope),
    refused:
      `not run: an identical call of ${tool} already failed with ${envelope.class} (${envelope.code}), ` +
      `which repeating cannot fix; ${envelope.class === 'authentication' ? 'refresh the credential, then call again' : 'change the arguments or choose another approach'}`,
  };
}

/** A refused repeat, as the guard reports it (GuardOptions.onRefuse). */
export interface RefusedCall {
  tool: string;
  args: unknown;
  envelope: ModelEnvelope;
}

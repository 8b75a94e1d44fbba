/**
 * Thrown by the checks while they walk a statement; run-console.ts turns it into the public
 * ConsoleRefusal, adding what the console allows (which needs the catalogue the checks do not).
 */
export class PolicyViolation extends Error {
  override name = 'PolicyViolation';
}

/** Stops the check: the statement is refused for `reason` (one sentence, ending with a period). */
export function refuse(reason: string): never {
  throw new PolicyViolation(reason);
}

import type { CallerFaultMode, Sli } from '@faultline/collector/budget';

/** The counting rules, said where the numbers are: one wording for every panel that counts. */
export const ELIGIBLE_CALLS =
  'one per logical outbound operation (HTTP request, DB query or command, SDK operation, RPC), each attempt counted; never a pool checkout, a successful connect, or the transport request inside an SDK operation';

export const FIRST_HAND =
  'Each failure is counted once, where it happened: an echo of a deeper failure in the same request (a caller whose callee failed, a server whose call failed) is not counted again';

export function sliText(sli: Sli): string {
  return sli === 'requests'
    ? "the entry service's requests (the root server span of each request; a failed one is attributed to its first failure's class)"
    : `logical outbound calls per calling service: ${ELIGIBLE_CALLS}`;
}

export function callerFaultText(mode: CallerFaultMode): string {
  return mode === 'include'
    ? 'validation (caller fault) failures are counted against the budget'
    : 'validation (caller fault) failures are shown apart and not counted against the budget';
}

export function CountingNote({ sli, callerFaults }: { sli?: Sli; callerFaults: CallerFaultMode }) {
  return (
    <p className="muted counting-note" data-testid="counting-note">
      {sli ? <>Counts {sliText(sli)}. </> : null}
      {FIRST_HAND}; {callerFaultText(callerFaults)}.
    </p>
  );
}

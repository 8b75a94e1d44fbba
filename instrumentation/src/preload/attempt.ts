/** Placeholder until the retry policy exposes its attempt number. */
export function currentAttempt(): number | undefined {
  return undefined;
}

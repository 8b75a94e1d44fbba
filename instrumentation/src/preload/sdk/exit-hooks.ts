/** Longest a terminating signal waits for the last spans to leave. */
const SIGNAL_FLUSH_MS = 2000;
const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * Flushes on SIGTERM/SIGINT and before a natural exit without changing how the process ends.
 * Listening to a signal disables Node's default exit, so: when the application has its own
 * listener we only flush (exiting is its decision); when it has none, we flush, step aside and
 * re-raise the signal so the exit status is the conventional one (143 / 130).
 */
export function installExitHooks(flush: () => Promise<void>, hasUnflushed: () => boolean): () => void {
  const onSignal = (signal: NodeJS.Signals): void => {
    const appHandlesIt = process.listenerCount(signal) > 1;
    // This timer stays referenced on purpose: the process must live long enough to re-raise.
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, SIGNAL_FLUSH_MS));
    const done = (): void => {
      if (appHandlesIt) return;
      uninstall();
      process.kill(process.pid, signal);
    };
    Promise.race([flush(), deadline]).then(done, done);
  };
  const onBeforeExit = (): void => {
    // Flushing schedules I/O, which fires beforeExit again: only flush when there is news.
    if (hasUnflushed()) void flush();
  };
  for (const s of SIGNALS) process.on(s, onSignal);
  process.on('beforeExit', onBeforeExit);
  const uninstall = (): void => {
    for (const s of SIGNALS) process.removeListener(s, onSignal);
    process.removeListener('beforeExit', onBeforeExit);
  };
  return uninstall;
}

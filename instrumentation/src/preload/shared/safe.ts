import { diag } from '@opentelemetry/api';

/**
 * Runs a hook body so that nothing it throws can reach the host application: a failing
 * classifier must cost a missing attribute, never a crashed request.
 */
export function safely<T>(label: string, fn: () => T): T | undefined {
  try {
    return fn();
  } catch (err) {
    diag.warn(`faultline: ${label} failed`, err);
    return undefined;
  }
}

/** Configuration problems go to stderr once: an operator must see them without enabling diag. */
export function warnOnce(message: string): void {
  if (reported.has(message)) return;
  reported.add(message);
  console.warn(`[faultline] ${message}`);
}

const reported = new Set<string>();

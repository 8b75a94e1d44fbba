import { AsyncLocalStorage } from 'node:async_hooks';
import type { Envelope } from '../types.js';

/** What withRetry knows about the attempt in progress; readable from any code the attempt runs. */
export interface AttemptInfo {
  /** 1-based attempt number. */
  attempt: number;
  maxAttempts: number;
  /** Envelope of the attempt before this one; undefined on the first. */
  previous?: Envelope;
}

/**
 * One storage per process, kept on globalThis: the preload bundle and the application's copy of
 * this package (ESM and CJS builds alike) must see the same attempt, or spans would say 1.
 */
const KEY = Symbol.for('faultline.attempt-storage');
const holder = globalThis as { [KEY]?: AsyncLocalStorage<AttemptInfo> };
const storage: AsyncLocalStorage<AttemptInfo> = holder[KEY] ?? new AsyncLocalStorage<AttemptInfo>();
holder[KEY] = storage;

/**
 * The attempt number of the withRetry call running in this async context, or `undefined`
 * outside withRetry. The preload numbers attempts from identical repeats of failed calls, so that
 * hand-written loops count the same; it reads this (when a CLIENT span starts) only for calls it
 * has no operation key for.
 */
export function currentAttempt(): number | undefined {
  return storage.getStore()?.attempt;
}

/** Full details of the current attempt (number, budget, previous envelope). */
export function currentAttemptInfo(): AttemptInfo | undefined {
  return storage.getStore();
}

/** Runs `fn` with `info` as the current attempt for everything it calls, sync or async. */
export function runInAttempt<T>(info: AttemptInfo, fn: () => T): T {
  return storage.run(info, fn);
}

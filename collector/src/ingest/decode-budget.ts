/**
 * Refused because the bytes being read and decoded at once are at the budget; answer 429 with
 * `Retry-After: retryAfterSeconds` (the request's spans were not stored).
 */
export class DecodeBudgetError extends Error {
  readonly retryAfterSeconds: number;

  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.name = 'DecodeBudgetError';
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export interface DecodeBudgetOptions {
  /** Longest a request may wait for budget, summed over its reservations (default 2 000 ms). */
  maxWaitMs?: number;
}

/** @internal A reservation waiting for budget. */
export interface BudgetWaiter {
  lease: DecodeLease;
  bytes: number;
  resolve: () => void;
  reject: (err: DecodeBudgetError) => void;
  timer: NodeJS.Timeout;
  since: number;
}

/**
 * One global bound on the bytes a receiver holds for requests being read and decoded: body bytes
 * as they arrive, inflated bytes, and an estimate of the decoded objects. Per-request limits alone
 * let N concurrent exports take N times the largest request (16 gzip exports of 56 MiB took RSS from
 * 400 MiB to 2.7 GiB); this makes the sum wait instead. Transport-neutral: OTLP/HTTP uses it, and a
 * gRPC path would take a lease per call the same way.
 *
 * Rules:
 *   - A reservation is granted when it fits (`used + bytes <= capacity`), or when its request is the
 *     only one holding budget: a request larger than the whole budget (yet within the per-request
 *     limits) then runs alone rather than being refused forever. So accounted bytes never exceed
 *     max(capacity, the largest single request).
 *   - Waiters are served in the order their requests arrived (lease creation), never skipped: a
 *     large request is not starved by a stream of small ones, and a request already holding budget
 *     (its body read, now inflating) goes before later arrivals, since finishing it frees memory.
 *   - Each request waits at most `maxWaitMs` in total, then gets DecodeBudgetError (→ 429).
 *   - A wait that only another waiter could end is refused at once: when the oldest waiter does not
 *     fit and every request holding budget is itself waiting, nobody would ever release, so the
 *     youngest waiting holders are refused (their budget returned) until the oldest fits.
 */
export class DecodeBudget {
  readonly capacity: number;
  readonly maxWaitMs: number;
  /** Bytes reserved by all leases. */
  used = 0;
  /** Leases holding more than 0 bytes. */
  private holders = 0;
  /** Holders currently waiting for more. */
  private waitingHolders = 0;
  /** Sorted by lease arrival (`seq`), oldest first. */
  private readonly queue: BudgetWaiter[] = [];
  private nextSeq = 0;

  constructor(capacityBytes: number, options: DecodeBudgetOptions = {}) {
    if (!Number.isSafeInteger(capacityBytes) || capacityBytes < 1) {
      throw new RangeError(`decode budget must be a positive whole number of bytes, got ${capacityBytes}`);
    }
    const maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
    if (!Number.isFinite(maxWaitMs) || maxWaitMs < 0) {
      throw new RangeError(`decode budget maxWaitMs must be a non-negative number, got ${maxWaitMs}`);
    }
    this.capacity = capacityBytes;
    this.maxWaitMs = maxWaitMs;
  }

  /** A handle for one request's reservations; `release()` it when its rows are handed on. */
  lease(): DecodeLease {
    return new DecodeLease(this, this.nextSeq++);
  }

  /** Requests waiting for budget right now. */
  get waiting(): number {
    return this.queue.length;
  }

  /** @internal */
  reserve(lease: DecodeLease, bytes: number): Promise<void> | undefined {
    if (!Number.isSafeInteger(bytes) || bytes < 0) {
      throw new RangeError(`decode budget: cannot reserve ${bytes} bytes`);
    }
    if (bytes === 0) return undefined;
    // Granted at once only when nobody waits: a newcomer never passes an earlier waiter.
    if (this.queue.length === 0 && this.fits(lease, bytes)) {
      this.take(lease, bytes);
      return undefined;
    }
    const left = this.maxWaitMs - lease.waitedMs;
    if (left <= 0) {
      // Its wait is spent: refused now, holding nothing, like a wait that timed out.
      const err = this.refusal(lease, bytes, 'waited');
      this.release(lease);
      return Promise.reject(err);
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: BudgetWaiter = {
        lease,
        bytes,
        resolve,
        reject,
        since: Date.now(),
        timer: setTimeout(() => this.drop(waiter, 'waited'), left),
      };
      let i = this.queue.length;
      while (i > 0 && this.queue[i - 1]!.lease.seq > lease.seq) i--;
      this.queue.splice(i, 0, waiter);
      lease.waiter = waiter;
      if (lease.held > 0) this.waitingHolders++;
      this.pump();
    });
  }

  /** @internal */
  release(lease: DecodeLease): void {
    if (lease.waiter) this.drop(lease.waiter, 'released', false);
    if (lease.held > 0) {
      this.used -= lease.held;
      this.holders--;
      lease.held = 0;
    }
    this.pump();
  }

  private fits(lease: DecodeLease, bytes: number): boolean {
    return this.used + bytes <= this.capacity || this.used === lease.held;
  }

  private take(lease: DecodeLease, bytes: number): void {
    if (lease.held === 0) this.holders++;
    lease.held += bytes;
    this.used += bytes;
  }

  /** Grants waiters in arrival order; breaks a standstill by refusing the youngest waiting holders. */
  private pump(): void {
    for (;;) {
      const head = this.queue[0];
      if (!head) return;
      if (this.fits(head.lease, head.bytes)) {
        this.unqueue(head);
        head.lease.waitedMs += Date.now() - head.since;
        this.take(head.lease, head.bytes);
        head.resolve();
        continue;
      }
      if (this.waitingHolders < this.holders) return; // someone is working and will release
      const victim = this.youngestWaitingHolder();
      if (!victim || victim === head) return;
      this.drop(victim, 'standstill', false);
    }
  }

  private youngestWaitingHolder(): BudgetWaiter | undefined {
    for (let i = this.queue.length - 1; i >= 0; i--) {
      if (this.queue[i]!.lease.held > 0) return this.queue[i];
    }
    return undefined;
  }

  private unqueue(waiter: BudgetWaiter): void {
    clearTimeout(waiter.timer);
    const i = this.queue.indexOf(waiter);
    if (i >= 0) this.queue.splice(i, 1);
    waiter.lease.waiter = undefined;
    if (waiter.lease.held > 0) this.waitingHolders--;
  }

  /** Ends a wait without a grant; a refused holder's bytes go back at once so others can run. */
  private drop(waiter: BudgetWaiter, why: 'waited' | 'standstill' | 'released', pumpAfter = true): void {
    this.unqueue(waiter);
    const { lease } = waiter;
    lease.waitedMs += Date.now() - waiter.since;
    const err = this.refusal(lease, waiter.bytes, why);
    if (lease.held > 0) {
      this.used -= lease.held;
      this.holders--;
      lease.held = 0;
    }
    waiter.reject(err);
    if (pumpAfter) this.pump();
  }

  private refusal(
    lease: DecodeLease,
    bytes: number,
    why: 'waited' | 'standstill' | 'released',
  ): DecodeBudgetError {
    const retryAfter = Math.max(1, Math.ceil(this.maxWaitMs / 1000));
    const wanted = lease.held + bytes;
    const cause =
      why === 'standstill'
        ? 'earlier requests need the rest of it first'
        : why === 'released'
          ? 'the request ended while waiting'
          : `waited ${lease.waitedMs} ms`;
    return new DecodeBudgetError(
      `collector is decoding too much at once: this request needs ${mib(wanted)} of the ` +
        `${mib(this.capacity)} decode budget (FAULTLINE_MAX_DECODE_BYTES), ${mib(this.used)} are in use ` +
        `and ${cause}; retry after ${retryAfter}s`,
      retryAfter,
    );
  }
}

/** One request's share of a DecodeBudget. */
export class DecodeLease {
  /** Bytes this lease holds. */
  held = 0;
  /** Milliseconds spent waiting so far (bounded by the budget's maxWaitMs). */
  waitedMs = 0;
  /** @internal */
  waiter: BudgetWaiter | undefined;
  readonly seq: number;
  private readonly budget: DecodeBudget;

  constructor(budget: DecodeBudget, seq: number) {
    this.budget = budget;
    this.seq = seq;
  }

  /**
   * Adds `bytes` to this lease. Returns undefined when granted at once (the hot path allocates no
   * promise), else a promise that resolves on the grant or rejects with DecodeBudgetError; on a
   * rejection the lease holds nothing any more.
   */
  reserve(bytes: number): Promise<void> | undefined {
    return this.budget.reserve(this, bytes);
  }

  /** Returns everything this lease holds and ends its wait. Idempotent. */
  release(): void {
    this.budget.release(this);
  }
}

function mib(bytes: number): string {
  return bytes < 1024 * 1024 ? `${bytes} bytes` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** How long a request waits for decode budget before its 429. */
export const DEFAULT_MAX_WAIT_MS = 2_000;

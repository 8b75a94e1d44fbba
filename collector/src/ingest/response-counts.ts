import type { MetricSeries } from '../metrics/live-metrics.js';

/**
 * What a receiver counts of its own answers, whatever its signal: responses by HTTP status (a gRPC
 * call counted under the HTTP status of the same outcome, so /metrics reads alike for both
 * transports), and when something was last refused.
 */
export class ResponseCounts {
  /** Responses by HTTP status. */
  readonly responses = new Map<number, number>();
  /** When a request, or an item inside an accepted one, was last refused (epoch ms), or null. */
  lastRefusedAt: number | null = null;

  countResponse(status: number): void {
    this.responses.set(status, (this.responses.get(status) ?? 0) + 1);
    if (status >= 400) this.lastRefusedAt = Date.now();
  }

  /** The responses as /metrics series labelled `code`, in status order. */
  byCode(): MetricSeries[] {
    return [...this.responses].sort(([a], [b]) => a - b).map(([code, n]) => [{ code }, n] as const);
  }
}

import { type Attributes, diag } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import {
  COUNT_ATTR_CLASS,
  COUNT_ATTR_CODE,
  COUNT_ATTR_DEPENDENCY,
  COUNT_ATTR_ENTRY,
  COUNT_ATTR_PROPAGATED,
  COUNT_ATTR_SOURCE,
  COUNT_ATTR_SPAN_KIND,
} from '../../envelope/count-metrics.js';
import { type CountKey, countKeyOf } from './count-key.js';
import { type CountSeries, CountTable } from './count-table.js';

/** Series per metric before the rest go to the overflow series (the metrics SDK's own default). */
export const MAX_SERIES = 2000;

/**
 * Exact counts of every logical call and failure this process made or served, whatever the trace
 * sampler kept: fed every span that ends recording (the span processor's onEnd), keyed as the
 * collector's rollups key them (count-key.ts), and read by the metrics SDK as the contract's
 * faultline.calls and faultline.failures (envelope/count-metrics.ts; sdk/count-meter.ts).
 *
 * An operation its library retried internally (faultline.attempts = N) is N calls, N - 1 of them
 * failed with the envelope of the attempt before the last (faultline.previous_*), never an echo:
 * what calls_1m_prior_attempts_mv and dependency_calls_1m count from its span.
 */
export class CallCounter {
  readonly calls = new CountTable(MAX_SERIES);
  readonly failures = new CountTable(MAX_SERIES);
  /** Calls counted so far: an exit hook flushes only when this moved. */
  counted = 0;

  /** Never throws: it runs on every span's end, inside the host's own code. */
  count(span: ReadableSpan): void {
    try {
      const key = countKeyOf(span);
      if (key === undefined) return;
      const attempts = Math.max(key.attempts, 1);
      this.counted += attempts;
      const calls =
        this.calls.find(key.slot, key.source, key.dependency) ??
        this.calls.open(key.slot, key.source, key.dependency, callAttributes(key));
      calls.value += attempts;
      if (key.failed) this.fail(calls, key, key.class, key.code, key.propagated, 1);
      if (attempts > 1) this.fail(calls, key, key.previousClass, key.previousCode, false, attempts - 1);
    } catch (err) {
      diag.warn('faultline: counting a span failed', err);
    }
  }

  /** Failures of `call`'s series, found from it by propagated, class and code. */
  private fail(
    call: CountSeries,
    key: CountKey,
    cls: string,
    code: string,
    propagated: boolean,
    n: number,
  ): void {
    // Past the calls' limit a series holds calls of many keys: their failures overflow too.
    if (this.calls.isOverflow(call)) {
      this.failures.overflowSeries().value += n;
      return;
    }
    call.failures ??= [new Map(), new Map()];
    const byClass = call.failures[propagated ? 1 : 0];
    let byCode = byClass.get(cls);
    if (byCode === undefined) {
      byCode = new Map();
      byClass.set(cls, byCode);
    }
    let series = byCode.get(code);
    if (series === undefined) {
      series = this.failures.add({
        ...callAttributes(key),
        [COUNT_ATTR_CLASS]: cls,
        [COUNT_ATTR_CODE]: code,
        [COUNT_ATTR_PROPAGATED]: propagated,
      });
      byCode.set(code, series);
    }
    series.value += n;
  }
}

function callAttributes(key: CountKey): Attributes {
  return {
    [COUNT_ATTR_SPAN_KIND]: key.kind,
    [COUNT_ATTR_SOURCE]: key.source,
    [COUNT_ATTR_DEPENDENCY]: key.dependency,
    [COUNT_ATTR_ENTRY]: key.entry,
  };
}

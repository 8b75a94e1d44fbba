import type { Attributes } from '@opentelemetry/api';

/** One series of a count: its data point attributes (built once) and its running total. */
export interface CountSeries {
  readonly attributes: Attributes;
  value: number;
  /** The total last handed to the metrics SDK: a series that did not move is not observed. */
  reported: number;
  /**
   * A calls series only: the failure series of its calls, by propagated (0, 1), class and code,
   * so that counting a failure looks up the strings it has rather than building one.
   */
  failures?: [FailureSeries, FailureSeries];
}

/** Failure series by class, then code. */
export type FailureSeries = Map<string, Map<string, CountSeries>>;

/**
 * Running totals by series, found by a small slot number and two strings (for calls: the span
 * kind and entry mark, the source, the dependency), so that counting a span is an array index, two
 * Map lookups and an increment: the metrics SDK's own `Counter.add` hashes the attribute set on
 * every call (sorting and stringifying its keys, about 1.4 µs here), and one concatenated key cost
 * a string build and its hash per span. The SDK reads these totals once per export instead
 * (sdk/count-meter.ts). Past `limit` series (span data is attacker-controlled) the rest count under
 * one overflow series, the OpenTelemetry name for it, so totals stay exact and memory bounded.
 */
export class CountTable {
  private readonly slots: (Map<string, Map<string, CountSeries>> | undefined)[] = [];
  private readonly all: CountSeries[] = [];
  private overflow: CountSeries | undefined;

  constructor(private readonly limit: number) {}

  find(slot: number, first: string, second: string): CountSeries | undefined {
    return this.slots[slot]?.get(first)?.get(second);
  }

  /** A new series (find() missed), or the overflow series past the limit. */
  open(slot: number, first: string, second: string, attributes: Attributes): CountSeries {
    if (this.all.length >= this.limit) return this.overflowSeries();
    let firsts = this.slots[slot];
    if (firsts === undefined) {
      firsts = new Map();
      this.slots[slot] = firsts;
    }
    let seconds = firsts.get(first);
    if (seconds === undefined) {
      seconds = new Map();
      firsts.set(first, seconds);
    }
    const series = { attributes, value: 0, reported: 0 };
    seconds.set(second, series);
    this.all.push(series);
    return series;
  }

  /** A new series its caller finds itself (a calls series' failures), or the overflow series. */
  add(attributes: Attributes): CountSeries {
    if (this.all.length >= this.limit) return this.overflowSeries();
    const series = { attributes, value: 0, reported: 0 };
    this.all.push(series);
    return series;
  }

  isOverflow(series: CountSeries): boolean {
    return series === this.overflow;
  }

  /** The series whose total moved since the last call, each marked reported. */
  *moved(): Generator<CountSeries> {
    for (const series of this.all) if (series.value !== series.reported) yield report(series);
    if (this.overflow && this.overflow.value !== this.overflow.reported) yield report(this.overflow);
  }

  /** The one series for whatever is past the limit (`otel.metric.overflow`). */
  overflowSeries(): CountSeries {
    this.overflow ??= { attributes: OVERFLOW, value: 0, reported: 0 };
    return this.overflow;
  }
}

const OVERFLOW: Attributes = { 'otel.metric.overflow': true };

function report(series: CountSeries): CountSeries {
  series.reported = series.value;
  return series;
}

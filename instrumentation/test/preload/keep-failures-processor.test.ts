import {
  type Context,
  createTraceState,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  trace,
} from '@opentelemetry/api';
import {
  BasicTracerProvider,
  type ReadableSpan,
  SamplingDecision,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { ATTR_CLASS, ATTR_PREVIOUS_CLASS, ATTR_SAMPLING_KEPT } from '../../src/envelope/attribute-names.js';
import { readConfig } from '../../src/preload/sdk/config.js';
import { PendingAncestors } from '../../src/preload/sdk/keep-failures-ancestors.js';
import { KeepFailuresProcessor } from '../../src/preload/sdk/keep-failures-processor.js';
import { withWeightOne } from '../../src/preload/sdk/keep-failures-view.js';
import { createSampler } from '../../src/preload/sdk/sampler.js';

/**
 * The keep-every-failure option in process (issue 29): the sampler records what it drops, and the
 * processor in front of the export hands on failures (th:0, kept=failure), their local ancestors
 * in unsampled traces (kept=path), sampled spans as they are, and nothing else.
 */

/** What the batch processor would be handed, in order. */
class Recorder implements SpanProcessor {
  ended: ReadableSpan[] = [];
  onStart(): void {}
  onEnd(span: ReadableSpan): void {
    this.ended.push(span);
  }
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

function setup(ratio: number, parentBased = true) {
  const next = new Recorder();
  const ancestors = new PendingAncestors();
  const provider = new BasicTracerProvider({
    sampler: createSampler({ parentBased, ratio }, true),
    spanProcessors: [new KeepFailuresProcessor(next, ancestors)],
  });
  const tracer = provider.getTracer('test');
  const start = (name: string, parent: Context = ROOT_CONTEXT, kind = SpanKind.INTERNAL) =>
    tracer.startSpan(name, { kind }, parent);
  const under = (span: ReturnType<typeof start>) => trace.setSpan(ROOT_CONTEXT, span);
  return { next, ancestors, start, under };
}

const summary = (s: ReadableSpan) => ({
  name: s.name,
  kept: s.attributes[ATTR_SAMPLING_KEPT],
  sampledFlag: (s.spanContext().traceFlags & TraceFlags.SAMPLED) !== 0,
  traceState: s.spanContext().traceState?.serialize() ?? '',
});

describe('in an unsampled trace', () => {
  it('exports a failure with th:0 and its local ancestors as its path, nothing else', () => {
    const { next, ancestors, start, under } = setup(0);
    const server = start('GET /item', ROOT_CONTEXT, SpanKind.SERVER);
    const handle = start('handle', under(server));
    const ok = start('GET ok', under(handle), SpanKind.CLIENT);
    const failed = start('GET dep', under(handle), SpanKind.CLIENT);
    expect(server.isRecording()).toBe(true);
    expect(server.spanContext().traceFlags & TraceFlags.SAMPLED).toBe(0);
    ok.end();
    failed.setStatus({ code: SpanStatusCode.ERROR });
    failed.end();
    handle.end();
    server.end();
    expect(next.ended.map(summary)).toEqual([
      { name: 'GET dep', kept: 'failure', sampledFlag: true, traceState: 'ot=th:0' },
      { name: 'handle', kept: 'path', sampledFlag: true, traceState: '' },
      { name: 'GET /item', kept: 'path', sampledFlag: true, traceState: '' },
    ]);
    expect(ancestors.size).toBe(0);
    // The ended span itself is untouched: only the view carries the mark.
    expect((failed as unknown as ReadableSpan).attributes[ATTR_SAMPLING_KEPT]).toBeUndefined();
    expect(failed.spanContext().traceFlags).toBe(TraceFlags.NONE);
  });

  it('drops a trace without failure, and marks a failed ancestor failure rather than path', () => {
    const { next, start, under } = setup(0);
    const quiet = start('quiet', ROOT_CONTEXT, SpanKind.SERVER);
    start('child', under(quiet), SpanKind.CLIENT).end();
    quiet.end();
    expect(next.ended).toEqual([]);

    const root = start('root', ROOT_CONTEXT, SpanKind.SERVER);
    const parent = start('retrying call', under(root), SpanKind.CLIENT);
    const child = start('attempt', under(parent), SpanKind.CLIENT);
    child.setAttribute(ATTR_CLASS, 'outage');
    child.end();
    // A retry that succeeded in the end: its failed earlier attempt keeps it.
    parent.setAttribute(ATTR_PREVIOUS_CLASS, 'outage');
    parent.end();
    root.end();
    expect(next.ended.map(summary).map(({ name, kept }) => [name, kept])).toEqual([
      ['attempt', 'failure'],
      ['retrying call', 'failure'],
      ['root', 'path'],
    ]);
  });

  it('follows a remote unsampled parent, keeps its tracestate members, and notes nothing remote', () => {
    const { next, ancestors, start } = setup(1);
    const remote = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: '0123456789abcdef0123456789abcdef',
      spanId: '0123456789abcdef',
      traceFlags: TraceFlags.NONE,
      isRemote: true,
      traceState: createTraceState('vendor=x,ot=rv:90000000000000'),
    });
    const server = start('POST /pay', remote, SpanKind.SERVER);
    expect(server.spanContext().traceFlags & TraceFlags.SAMPLED).toBe(0);
    server.setAttribute(ATTR_CLASS, 'validation');
    server.end();
    expect(next.ended.map(summary)).toEqual([
      {
        name: 'POST /pay',
        kept: 'failure',
        sampledFlag: true,
        traceState: 'ot=th:0;rv:90000000000000,vendor=x',
      },
    ]);
    expect(next.ended[0]?.parentSpanContext?.spanId).toBe('0123456789abcdef');
    expect(ancestors.size).toBe(0);
  });
});

describe('in a sampled trace', () => {
  it('hands successes on as they are and rewrites a failure to th:0 with the mark', () => {
    const { next, ancestors, start, under } = setup(1);
    const server = start('GET /item', ROOT_CONTEXT, SpanKind.SERVER);
    const failed = start('GET dep', under(server), SpanKind.CLIENT);
    failed.setAttribute(ATTR_CLASS, 'outage');
    failed.end();
    server.end();
    expect(next.ended[1]).toBe(server);
    expect(next.ended.map(summary)).toEqual([
      { name: 'GET dep', kept: 'failure', sampledFlag: true, traceState: 'ot=th:0' },
      { name: 'GET /item', kept: undefined, sampledFlag: true, traceState: 'ot=th:0' },
    ]);
    expect(ancestors.size).toBe(0);
  });

  it('replaces only the th sub-key of ot', () => {
    const rewritten = (raw?: string) => withWeightOne(raw ? createTraceState(raw) : undefined).serialize();
    expect(rewritten()).toBe('ot=th:0');
    expect(rewritten('ot=th:e666;rv:12345678901234,a=1')).toBe('ot=th:0;rv:12345678901234,a=1');
    expect(rewritten('a=1,ot=rv:12345678901234;x:y')).toBe('ot=th:0;rv:12345678901234;x:y,a=1');
    expect(rewritten('a=1')).toBe('ot=th:0,a=1');
  });
});

describe('the sampler and the switch', () => {
  it('records what the ratio drops, with the same unsampled tracestate that travels', () => {
    const traceId = '0123456789abcdef0000000000000000';
    const decide = (keep: boolean) =>
      createSampler({ parentBased: true, ratio: 0.1 }, keep)?.shouldSample(
        ROOT_CONTEXT,
        traceId,
        'GET',
        SpanKind.SERVER,
        {},
        [],
      );
    const plain = decide(false);
    const kept = decide(true);
    expect(plain?.decision).toBe(SamplingDecision.NOT_RECORD);
    expect(kept?.decision).toBe(SamplingDecision.RECORD);
    expect(kept?.traceState?.serialize()).toBe(plain?.traceState?.serialize());
  });

  const keep = (env: Record<string, string>, option?: boolean) =>
    readConfig(option === undefined ? {} : { keepFailures: option }, env);

  it('is on below ratio 1, off at 1 and without a ratio sampler; the variable and option override', () => {
    const ratio = (arg: string) => ({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: arg });
    expect(keep(ratio('0.1')).config.keepFailures).toBe(true);
    expect(keep(ratio('0')).config.keepFailures).toBe(true);
    expect(keep(ratio('1')).config.keepFailures).toBe(false);
    expect(keep({}).config.keepFailures).toBe(false);
    expect(keep({ FAULTLINE_KEEP_FAILURES: 'true' }).config.keepFailures).toBe(false);
    expect(keep({ ...ratio('0.1'), FAULTLINE_KEEP_FAILURES: 'false' }).config.keepFailures).toBe(false);
    expect(keep({ ...ratio('1'), FAULTLINE_KEEP_FAILURES: 'true' }).config.keepFailures).toBe(true);
    expect(keep({ ...ratio('0.1'), FAULTLINE_KEEP_FAILURES: 'true' }, false).config.keepFailures).toBe(false);
  });

  it('warns once about a value it cannot read and keeps the default', () => {
    const { config, warnings } = keep({
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.1',
      FAULTLINE_KEEP_FAILURES: 'always',
    });
    expect(config.keepFailures).toBe(true);
    expect(warnings).toEqual(['FAULTLINE_KEEP_FAILURES="always" is not valid: use on or off (using on)']);
    // Not read at all without a ratio sampler, like OTEL_TRACES_SAMPLER_ARG.
    expect(keep({ FAULTLINE_KEEP_FAILURES: 'always' }).warnings).toEqual([]);
  });
});

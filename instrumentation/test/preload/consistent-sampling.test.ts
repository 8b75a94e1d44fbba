import { createTraceState, ROOT_CONTEXT, SpanKind, TraceFlags, trace } from '@opentelemetry/api';
import { SamplingDecision } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../src/preload/sdk/config.js';
import { createSampler } from '../../src/preload/sdk/sampler.js';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './helpers/otlp-receiver.js';
import { type FixtureResult, type PreloadMode, runFixture, startService } from './helpers/run-fixture.js';
import { CLIENT, SERVER } from './helpers/spans.js';

/**
 * Issue #29: counts that stay true when traces are sampled. Under traceidratio and
 * parentbased_traceidratio the preload samples consistently ("TraceState: Probability Sampling"):
 * a trace is kept when the last 56 bits of its trace id reach the threshold 2^56 × (1 − ratio),
 * and every kept span carries that threshold as `ot=th:<hex>` in its tracestate, which also
 * travels downstream in the `tracestate` header. The fixture makes REQUESTS independent root GETs
 * (each a new trace) to its own server, or to a second preloaded process.
 */

const N = 400;
const P = 0.25;
/** 2^56 × (1 − 0.25) = 0xc0000000000000, written without its trailing zeros. */
const THRESHOLD = 0xc0000000000000n;
const TH_C = 'ot=th:c';
/**
 * The kept count over N independent traces is Binomial(N, P): mean N·P = 100, standard deviation
 * √(N·P·(1−P)) = √75 ≈ 8.66. The test allows ±4 standard deviations (66 to 134 traces kept): a
 * correct sampler fails it with probability about 6·10⁻⁵ (normal approximation), while a sampler
 * keeping everything (400) or at the wrong ratio (0.5 → 200, 0.1 → 40) is far outside.
 */
const TOLERANCE = 4 * Math.sqrt(N * P * (1 - P));
const FEW = 20;

interface Run {
  mode: Exclude<PreloadMode, 'none'>;
  requests: number;
  env: Record<string, string>;
}

const RATIO = { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: String(P) };

/** Runs of the fixture against its own server; `run` name is also the service name. */
const RUNS = {
  parent: { mode: 'import', requests: N, env: RATIO },
  root: {
    mode: 'require',
    requests: N,
    env: { OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: String(P) },
  },
  one: {
    mode: 'import',
    requests: FEW,
    env: { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '1' },
  },
  unset: { mode: 'require', requests: FEW, env: {} },
  alwayson: { mode: 'import', requests: FEW, env: { OTEL_TRACES_SAMPLER: 'always_on' } },
  invalid: {
    mode: 'import',
    requests: FEW,
    env: { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: 'abc' },
  },
} satisfies Record<string, Run>;
type RunName = keyof typeof RUNS | 'caller';

/** What a fixture's server saw of one request. */
interface Received {
  traceId: string;
  /** The caller's client span, the server span's parent. */
  parentId: string;
  sampled: boolean;
  tracestate: string;
}

let receiver: OtlpReceiver;
const results = new Map<RunName | 'downstream', FixtureResult>();

function runEnv(run: string, requests: number, extra: Record<string, string>): Record<string, string> {
  return {
    OTEL_SERVICE_NAME: run,
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    REQUESTS: String(requests),
    ...extra,
  };
}

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  // The caller samples at 0.25, the downstream process at 0 for roots of its own: each server
  // span it keeps can only be its caller's decision and threshold, carried by the headers.
  const downstream = await startService({
    fixture: 'sampled-requests.mjs',
    mode: 'require',
    env: runEnv('downstream', 0, {
      ROLE: 'downstream',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0',
    }),
  });
  await Promise.all([
    ...Object.entries(RUNS).map(async ([run, { mode, requests, env }]) => {
      results.set(
        run as RunName,
        await runFixture({ fixture: 'sampled-requests.mjs', mode, env: runEnv(run, requests, env) }),
      );
    }),
    (async () => {
      results.set(
        'caller',
        await runFixture({
          fixture: 'sampled-requests.mjs',
          mode: 'import',
          env: runEnv('caller', N, { ...RATIO, DOWNSTREAM_URL: downstream.url }),
        }),
      );
      results.set('downstream', await downstream.stop());
    })(),
  ]);
}, 120_000);

afterAll(async () => {
  await receiver?.close();
});

function resultOf(run: RunName | 'downstream'): FixtureResult {
  const result = results.get(run);
  if (!result) throw new Error(`run ${run} did not finish`);
  return result;
}

function spansOf(run: RunName | 'downstream'): ReceivedSpan[] {
  return receiver.spans.filter((s) => s.service === run);
}

/** The server's lines, checking that the job itself ran as without sampling. */
function receivedBy(result: FixtureResult, requests: number, summary = true): Received[] {
  const lines = result.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { traceparent?: string; tracestate?: string });
  if (summary) expect(lines.pop()).toEqual({ requests, ok: requests });
  return lines.map(({ traceparent = '', tracestate = '' }) => {
    const [, traceId = '', parentId = '', flags = ''] = traceparent.split('-');
    return { traceId, parentId, sampled: flags === '01', tracestate };
  });
}

/** The specification's rule: kept when the trace id's last 56 bits are at least the threshold. */
function keptAt(traceId: string, threshold: bigint): boolean {
  return BigInt(`0x${traceId.slice(-14)}`) >= threshold;
}

const pairs = (spans: ReceivedSpan[], id: 'spanId' | 'parentSpanId') =>
  spans.map((s) => `${s.traceId}/${s[id]}`).sort();

/**
 * A 0.25 run against its own server: each of the N requests a new trace, decided by the rule,
 * every kept span marked th:c, the kept share binomially plausible, and each kept client call
 * traced into its server span (the downstream service) with the same decision and threshold.
 */
function expectSampledAtQuarter(run: RunName): void {
  const result = resultOf(run);
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
  const received = receivedBy(result, N);
  expect(received).toHaveLength(N);
  expect(new Set(received.map((r) => r.traceId)).size).toBe(N);
  for (const r of received) {
    const kept = keptAt(r.traceId, THRESHOLD);
    expect({ sampled: r.sampled, tracestate: r.tracestate }).toEqual(
      kept ? { sampled: true, tracestate: TH_C } : { sampled: false, tracestate: '' },
    );
  }

  const spans = spansOf(run);
  const clients = spans.filter((s) => s.kind === CLIENT);
  const servers = spans.filter((s) => s.kind === SERVER);
  expect(clients.length + servers.length).toBe(spans.length);
  // (a) every exported span holds the threshold.
  expect(spans.filter((s) => s.traceState !== TH_C)).toEqual([]);
  // Exactly the kept traces were exported, each client span a root.
  const kept = received.filter((r) => r.sampled);
  expect(clients.filter((s) => s.parentSpanId !== '')).toEqual([]);
  expect(pairs(clients, 'spanId')).toEqual(kept.map((r) => `${r.traceId}/${r.parentId}`).sort());
  // (b) the kept share.
  expect(Math.abs(clients.length - N * P)).toBeLessThanOrEqual(TOLERANCE);
  // (c) one server span per kept call, its child, kept and marked like it; none for a dropped one.
  expect(pairs(servers, 'parentSpanId')).toEqual(pairs(clients, 'spanId'));
}

describe('OTEL_TRACES_SAMPLER_ARG=0.25', () => {
  it('parentbased_traceidratio keeps a binomial quarter of the traces, each span marked ot=th:c', () => {
    expectSampledAtQuarter('parent');
  });

  it('traceidratio (root ratio, under --require) marks and keeps the same way', () => {
    expectSampledAtQuarter('root');
  });

  it('a downstream process follows its caller: same decision and th, whatever its own ratio', () => {
    const caller = resultOf('caller');
    expect({ code: caller.code, stderr: caller.stderr }).toEqual({ code: 0, stderr: '' });
    expect(receivedBy(caller, N, true)).toEqual([]);
    const downstream = resultOf('downstream');
    expect(downstream.stderr).toBe('');
    const received = receivedBy(downstream, N, false).filter((r) => r.traceId);
    expect(received).toHaveLength(N);
    for (const r of received) {
      expect(r.tracestate).toBe(r.sampled ? TH_C : '');
      expect(r.sampled).toBe(keptAt(r.traceId, THRESHOLD));
    }

    const clients = spansOf('caller');
    const servers = spansOf('downstream');
    expect(clients.every((s) => s.kind === CLIENT && s.parentSpanId === '')).toBe(true);
    expect(Math.abs(clients.length - N * P)).toBeLessThanOrEqual(TOLERANCE);
    // Its own root ratio 0 would keep nothing: every span it kept is its caller's decision.
    expect(servers.length).toBeGreaterThan(0);
    expect(servers.every((s) => s.kind === SERVER)).toBe(true);
    expect(pairs(servers, 'parentSpanId')).toEqual(pairs(clients, 'spanId'));
    expect([...clients, ...servers].filter((s) => s.traceState !== TH_C)).toEqual([]);
  });
});

/** A run that keeps every trace: all FEW calls and their server spans, with this tracestate. */
function expectAllKept(run: RunName, traceState: string, stderr = ''): void {
  const result = resultOf(run);
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr });
  const received = receivedBy(result, FEW);
  expect(received.map((r) => ({ sampled: r.sampled, tracestate: r.tracestate }))).toEqual(
    Array(FEW).fill({ sampled: true, tracestate: traceState }),
  );
  const spans = spansOf(run);
  const clients = spans.filter((s) => s.kind === CLIENT);
  expect(clients).toHaveLength(FEW);
  expect(
    pairs(
      spans.filter((s) => s.kind === SERVER),
      'parentSpanId',
    ),
  ).toEqual(pairs(clients, 'spanId'));
  expect(spans.map((s) => s.traceState)).toEqual(Array(2 * FEW).fill(traceState));
}

describe('samplers that keep everything', () => {
  it('ratio 1 keeps every trace, marked th:0 (the threshold the package writes for ratio 1)', () => {
    expectAllKept('one', 'ot=th:0');
  });

  it('the default sampler (parentbased_always_on) and always_on write no tracestate', () => {
    expectAllKept('unset', '');
    expectAllKept('alwayson', '');
  });

  it('OTEL_TRACES_SAMPLER_ARG=abc warns once and samples everything at ratio 1', () => {
    const warning =
      '[faultline] OTEL_TRACES_SAMPLER_ARG="abc" is not valid: use a probability from 0 to 1 such as 0.25 (using 1)';
    expectAllKept('invalid', 'ot=th:0', `${warning}\n`);
  });
});

describe('the sampler choice', () => {
  const sampling = (env: Record<string, string>) => readConfig({}, env);

  it('reads the two ratio samplers and their argument, leaving the others to the SDK', () => {
    expect(sampling({}).config.sampling).toBeUndefined();
    expect(sampling({ OTEL_TRACES_SAMPLER: 'always_off' }).config.sampling).toBeUndefined();
    expect(sampling({ OTEL_TRACES_SAMPLER: 'parentbased_always_on' }).config.sampling).toBeUndefined();
    expect(sampling({ OTEL_TRACES_SAMPLER: 'traceidratio' }).config.sampling).toEqual({
      parentBased: false,
      ratio: 1,
    });
    expect(
      sampling({ OTEL_TRACES_SAMPLER: ' parentbased_traceidratio ', OTEL_TRACES_SAMPLER_ARG: ' 0.1 ' }),
    ).toMatchObject({ config: { sampling: { parentBased: true, ratio: 0.1 } }, warnings: [] });
    // The argument only matters to a ratio sampler.
    expect(sampling({ OTEL_TRACES_SAMPLER_ARG: 'abc' }).warnings).toEqual([]);
  });

  it('warns about an argument outside [0, 1] and uses 1', () => {
    for (const arg of ['abc', '1.5', '-0.1', 'Infinity']) {
      const { config, warnings } = sampling({
        OTEL_TRACES_SAMPLER: 'traceidratio',
        OTEL_TRACES_SAMPLER_ARG: arg,
      });
      expect(config.sampling).toEqual({ parentBased: false, ratio: 1 });
      expect(warnings).toEqual([
        `OTEL_TRACES_SAMPLER_ARG=${JSON.stringify(arg)} is not valid: use a probability from 0 to 1 such as 0.25 (using 1)`,
      ]);
    }
  });

  it('keeps a trace from the threshold up, and follows a parent by its th (or rv) first', () => {
    const sampler = createSampler({ parentBased: true, ratio: P });
    if (!sampler) throw new Error('no sampler');
    const decide = (traceId: string, parent = ROOT_CONTEXT) =>
      sampler.shouldSample(parent, traceId, 'GET', SpanKind.CLIENT, {}, []);
    const at = decide(THRESHOLD.toString(16).padStart(32, '0'));
    expect(at.decision).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(at.traceState?.serialize()).toBe(TH_C);
    expect(decide((THRESHOLD - 1n).toString(16).padStart(32, '0')).decision).toBe(
      SamplingDecision.NOT_RECORD,
    );

    // A parent kept at th:8 (ratio 0.5) whose explicit rv reaches 8 but not c: the child follows it.
    const traceId = '0123456789abcdef0000000000000000';
    const parent = trace.setSpanContext(ROOT_CONTEXT, {
      traceId,
      spanId: '0123456789abcdef',
      traceFlags: TraceFlags.SAMPLED,
      isRemote: true,
      traceState: createTraceState('ot=th:8;rv:90000000000000,vendor=x'),
    });
    const child = decide(traceId, parent);
    expect(child.decision).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(child.traceState?.serialize()).toBe('ot=th:8;rv:90000000000000,vendor=x');
  });
});

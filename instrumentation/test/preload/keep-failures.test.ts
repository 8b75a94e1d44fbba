import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTR_SAMPLING_KEPT } from '../../src/envelope/attribute-names.js';
import { samplingWeightOf, spanWeightOf } from '../../src/envelope/sampling-weight.js';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './helpers/otlp-receiver.js';
import { type FixtureResult, startService } from './helpers/run-fixture.js';
import { CLIENT, SERVER } from './helpers/spans.js';
import { startUpstream, type Upstream } from './helpers/upstream.js';

/**
 * Issue 29, the keep-every-failure option: under a ratio sampler below 1 the preload still exports
 * every failed span (weight 1: `ot=th:0`, `faultline.sampling.kept=failure`) and, in a trace the
 * sampler dropped, the failure's local ancestors (`kept=path`, weight 0), while successes stay
 * sampled at 1/p. The fixture serves N requests; each opens a "handle" span and calls a local
 * dependency, which answers 503 to every 10th request and 400 to every other 25th: 40 + 8 = 48
 * failed calls, 352 successful ones, known exactly.
 */

const N = 400;
const P = 0.1;
const depOf = (i: number) => (i % 10 === 0 ? '/status/503' : i % 25 === 0 ? '/status/400' : '/ok');
const FAILED = Array.from({ length: N }, (_, i) => i).filter((i) => depOf(i) !== '/ok').length;
const SUCCEEDED = N - FAILED;
/**
 * The successful calls exported are Binomial(352, 0.1): mean 35.2, standard deviation
 * √(352·0.1·0.9) ≈ 5.63. Each counts for 1/p = 10, so the weighted count of successes may stray from
 * 352 by 4 standard deviations × 10 ≈ 225 (a correct sampler fails this with probability about
 * 6·10⁻⁵). Loose, as a binomial of 35 is; the exact per-trace check below is the strict one.
 */
const TOLERANCE = (4 * Math.sqrt(SUCCEEDED * P * (1 - P))) / P;
const FEW = 100;
const FAILED_OF_FEW = Array.from({ length: FEW }, (_, i) => i).filter((i) => depOf(i) !== '/ok').length;
/** A member of another vendor an upstream service put in the tracestate. */
const VENDOR = 'vendor=x';

interface Run {
  env: Record<string, string>;
  requests: number;
  /** Send each request as the child of an unsampled span of an upstream service. */
  unsampledParent?: boolean;
}

const RATIO = { OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: String(P) };
const RUNS = {
  ratio: { env: RATIO, requests: N },
  upstream: {
    env: { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: String(P) },
    requests: N,
    unsampledParent: true,
  },
  off: { env: { ...RATIO, FAULTLINE_KEEP_FAILURES: 'false' }, requests: N },
  one: { env: { OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '1' }, requests: FEW },
} satisfies Record<string, Run>;
type RunName = keyof typeof RUNS;

/** One request as the test sent it. */
interface Sent {
  dep: string;
  /** The upstream span it claimed as parent, when it sent one. */
  parentSpanId?: string;
}

let receiver: OtlpReceiver;
let upstream: Upstream;
const results = new Map<RunName, { result: FixtureResult; sent: Sent[] }>();

function get(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    })
      .on('error', reject)
      .end();
  });
}

async function run(name: RunName, { env, requests, unsampledParent }: Run): Promise<void> {
  const service = await startService({
    fixture: 'keep-failures-service.mjs',
    mode: 'import',
    env: {
      ...env,
      OTEL_SERVICE_NAME: name,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      DEP_URL: upstream.url,
    },
  });
  const sent: Sent[] = [];
  for (let i = 0; i < requests; i++) {
    const dep = depOf(i);
    const headers: Record<string, string> = {};
    let parentSpanId: string | undefined;
    if (unsampledParent) {
      parentSpanId = randomBytes(8).toString('hex');
      headers.traceparent = `00-${randomBytes(16).toString('hex')}-${parentSpanId}-00`;
      headers.tracestate = VENDOR;
    }
    expect(await get(`${service.url}/call?dep=${encodeURIComponent(dep)}`, headers)).toBe(200);
    sent.push({ dep, parentSpanId });
  }
  results.set(name, { result: await service.stop(), sent });
}

beforeAll(async () => {
  [receiver, upstream] = await Promise.all([startOtlpReceiver(), startUpstream()]);
  await Promise.all(Object.entries(RUNS).map(([name, r]) => run(name as RunName, r)));
}, 120_000);

afterAll(async () => {
  await Promise.all([receiver?.close(), upstream?.close()]);
});

/** One request's trace as exported: its server span, the fixture's handle span, the call. */
interface Trace {
  traceId: string;
  server?: ReceivedSpan;
  handle?: ReceivedSpan;
  call?: ReceivedSpan;
}

function tracesOf(name: RunName): Trace[] {
  const entry = results.get(name);
  if (!entry) throw new Error(`run ${name} did not finish`);
  expect(entry.result.stderr).toBe('');
  const traces = new Map<string, Trace>();
  // Trace exports only: the preload may also send its call counts to /v1/metrics.
  const exported = receiver.requests.filter((r) => r.path === '/v1/traces').flatMap((r) => r.spans);
  for (const span of exported.filter((s) => s.service === name)) {
    const t = traces.get(span.traceId) ?? { traceId: span.traceId };
    traces.set(span.traceId, t);
    const role = span.kind === SERVER ? 'server' : span.kind === CLIENT ? 'call' : 'handle';
    expect(t[role]).toBeUndefined();
    t[role] = span;
  }
  return [...traces.values()];
}

const failedCall = (s: ReceivedSpan | undefined) =>
  String(s?.attributes['url.full'] ?? '').includes('/status/');
const kept = (s: ReceivedSpan | undefined) => s?.attributes[ATTR_SAMPLING_KEPT];

/** The specification's rule: kept when the trace id's last 56 bits reach the threshold. */
function keptAt(traceId: string, threshold: bigint): boolean {
  return BigInt(`0x${traceId.slice(-14)}`) >= threshold;
}

/** The one `ot=th:<hex>` the 0.1 ratio wrote on the successes, and its threshold. */
function ratioMark(traces: Trace[]): { traceState: string; threshold: bigint } {
  const marks = new Set(traces.filter((t) => !failedCall(t.call)).map((t) => t.call?.traceState));
  expect(marks.size).toBe(1);
  const traceState = [...marks][0] ?? '';
  const th = /^ot=th:([0-9a-f]+)$/.exec(traceState)?.[1];
  if (!th) throw new Error(`no threshold in ${traceState}`);
  // p = 0.1: each kept span counts for 10.
  expect(samplingWeightOf(traceState).weight).toBeCloseTo(1 / P, 6);
  return { traceState, threshold: BigInt(`0x${th.padEnd(14, '0')}`) };
}

/** The handle span is the call's parent and the server span's child. */
function expectChain(t: Trace): void {
  expect(t.call?.parentSpanId).toBe(t.handle?.spanId);
  expect(t.handle?.parentSpanId).toBe(t.server?.spanId);
}

describe('traceidratio 0.1, keep-every-failure on by default', () => {
  it('exports every failed call with th:0 and kept=failure, sampled trace or not', () => {
    const traces = tracesOf('ratio');
    const failures = traces.filter((t) => failedCall(t.call));
    expect(failures).toHaveLength(FAILED);
    for (const { call } of failures) {
      expect({
        traceState: call?.traceState,
        kept: kept(call),
        weight: spanWeightOf(call?.traceState, kept(call)),
      }).toEqual({ traceState: 'ot=th:0', kept: 'failure', weight: 1 });
    }
  });

  it('exports the failure path of an unsampled trace as kept=path, and sampled traces as the sampler made them', () => {
    const traces = tracesOf('ratio');
    const { traceState, threshold } = ratioMark(traces);
    let unsampledFailures = 0;
    for (const t of traces) {
      expect(t.call && t.handle && t.server).toBeTruthy();
      expectChain(t);
      expect(t.server?.parentSpanId).toBe('');
      const marks = [t.server, t.handle].map((s) => ({ traceState: s?.traceState, kept: kept(s) }));
      if (keptAt(t.traceId, threshold)) {
        // A sampled trace: only its failed call differs (th:0, kept=failure).
        expect(marks).toEqual(Array(2).fill({ traceState, kept: undefined }));
        if (!failedCall(t.call)) expect(kept(t.call)).toBeUndefined();
      } else {
        // Dropped by the sampler: here only because of its failure, which the path explains.
        expect(failedCall(t.call)).toBe(true);
        expect(marks).toEqual(Array(2).fill({ traceState: '', kept: 'path' }));
        expect([t.server, t.handle].map((s) => spanWeightOf(s?.traceState, kept(s)))).toEqual([0, 0]);
        unsampledFailures++;
      }
    }
    // Failures outside the sampled tenth happened, so the path was exercised.
    expect(unsampledFailures).toBeGreaterThan(FAILED / 2);
  });

  it('keeps successes at 1/p: weighted, they estimate the true count within the binomial tolerance', () => {
    const traces = tracesOf('ratio');
    const successes = traces.filter((t) => !failedCall(t.call)).map((t) => t.call);
    const weighted = (spans: (ReceivedSpan | undefined)[]) =>
      spans.reduce((sum, s) => sum + spanWeightOf(s?.traceState, kept(s)), 0);
    expect(Math.abs(weighted(successes) - SUCCEEDED)).toBeLessThanOrEqual(TOLERANCE);
    // Failures count exactly, so every call together is 48 + 10 × successes kept.
    const calls = traces.map((t) => t.call);
    expect(weighted(calls)).toBeCloseTo(FAILED + weighted(successes), 6);
    // Requests (server spans): path spans weigh nothing, the sampled ones 10 each.
    expect(Math.abs(weighted(traces.map((t) => t.server)) - N)).toBeLessThanOrEqual(
      (4 * Math.sqrt(N * P * (1 - P))) / P,
    );
  });
});

describe('an unsampled parent from an upstream service (parentbased_traceidratio 0.1)', () => {
  it('exports only the failures and their local path, keeping the caller’s tracestate members', () => {
    const traces = tracesOf('upstream');
    const entry = results.get('upstream');
    const parents = new Set(entry?.sent.filter((s) => s.dep !== '/ok').map((s) => s.parentSpanId));
    expect(traces).toHaveLength(FAILED);
    for (const t of traces) {
      expect(failedCall(t.call)).toBe(true);
      expectChain(t);
      // The path stops at the remote parent, which the caller exports (or not) itself.
      expect(parents.has(t.server?.parentSpanId)).toBe(true);
      expect([t.call, t.handle, t.server].map((s) => ({ traceState: s?.traceState, kept: kept(s) }))).toEqual(
        [
          { traceState: `ot=th:0,${VENDOR}`, kept: 'failure' },
          { traceState: VENDOR, kept: 'path' },
          { traceState: VENDOR, kept: 'path' },
        ],
      );
    }
  });
});

describe('FAULTLINE_KEEP_FAILURES=false', () => {
  it('samples failures like successes: only the sampled traces, each span with th for 0.1, no mark', () => {
    const traces = tracesOf('off');
    const { traceState, threshold } = ratioMark(traces);
    for (const t of traces) {
      expect(keptAt(t.traceId, threshold)).toBe(true);
      expectChain(t);
      expect([t.call, t.handle, t.server].map((s) => ({ traceState: s?.traceState, kept: kept(s) }))).toEqual(
        Array(3).fill({ traceState, kept: undefined }),
      );
    }
    const failures = traces.filter((t) => failedCall(t.call)).length;
    expect(failures).toBeLessThan(FAILED);
    expect(Math.abs(traces.length - N * P)).toBeLessThanOrEqual(4 * Math.sqrt(N * P * (1 - P)));
  });
});

describe('ratio 1', () => {
  it('exports every trace with th:0 and no kept mark on any span', () => {
    const traces = tracesOf('one');
    expect(traces).toHaveLength(FEW);
    expect(traces.filter((t) => failedCall(t.call))).toHaveLength(FAILED_OF_FEW);
    const spans = traces.flatMap((t) => [t.call, t.handle, t.server]);
    expect(spans.map((s) => ({ traceState: s?.traceState, kept: kept(s) }))).toEqual(
      Array(3 * FEW).fill({ traceState: 'ot=th:0', kept: undefined }),
    );
  });
});

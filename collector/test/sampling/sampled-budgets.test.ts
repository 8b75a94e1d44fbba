import { spawn } from 'node:child_process';
import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeBurn } from '../../src/alerts/judge-burn.js';
import {
  burnWindowParams,
  callBudgetInputs,
  computeBudgets,
  type RunBudgetQuery,
  readCallBudgetRows,
  readRequestBudgetRows,
  requestBudgetInputs,
  type ServiceBudget,
} from '../../src/budget/index.js';
import { type Collector, startCollector } from '../../src/index.js';
import { openTestStore, type TestStore } from '../receiver/helpers/test-store.js';
import { startTailSamplingProxy, type TailSamplingProxy } from './tail-sampling-proxy.js';

/**
 * Issue 29: the Overview's budget figures of a service whose traces are sampled, against the truth
 * of the scenario. The service (fixtures/sampled-service.cjs, under the real preload) serves
 * REQUESTS requests, each making one call to a dependency this test runs, which answers by the
 * request's number: 5% 429 (rate_limit), 3% 503 (transient), 2% 400 (validation, a caller fault the
 * budget leaves out by default), the rest 200. So the truth, in every scenario:
 *   requests = calls = REQUESTS; failures against the budget = 8% of them (rate_limit the top
 *   class); failure ratio 8.0%; burn 0.08 / (1 - 0.995) = 16×.
 * Scenarios: no sampling (control); head sampling at 10% through the preload's sampler, with its
 * in-process counts (exact) and without them (estimated from the weights); a tail sampler that keeps
 * every error trace and 10% of the rest, marking what it kept (estimated) or not (only the in-process
 * counts, passed through it as metrics, can make that exact).
 * Tolerances at these sizes: an estimated count within ±15% and a ratio within ±20% of the truth
 * (10% of ~2,760 successes is ~276 traces: one standard deviation of the estimate is ~5.7%, so
 * ±15% is over 2.5 of them); exact figures equal the truth.
 */
const REQUESTS = 3000;
/** The dependency's answer to request i: 5% 429, 3% 503, 2% 400 (loud), or 1%, 0.5%, 0.5% (quiet). */
const MIXES = {
  loud: (i: number) => {
    const m = i % 100;
    return m < 5 ? '429' : m < 8 ? '503' : m < 10 ? '400' : 'ok';
  },
  quiet: (i: number) => {
    const m = i % 200;
    return m < 2 ? '429' : m < 3 ? '503' : m < 4 ? '400' : 'ok';
  },
};
type Mix = keyof typeof MIXES;
/**
 * What each mix is, and what the burn-rate alerts (the SRE workbook's rules, alerts/burn-rules.ts:
 * page at 14.4× over 1 h and 5 m or 6× over 6 h and 30 m, ticket at 1× over 3 d and 6 h) must do
 * with it: the loud mix burns 16× (a page), the quiet one 1.5% / 0.5% = 3× (a ticket, no page).
 */
const TRUTHS = {
  loud: {
    requests: REQUESTS,
    failures: REQUESTS * 0.08,
    ratio: 0.08,
    burn: 16,
    rateLimit: REQUESTS * 0.05,
    alerts: ['page', 'ticket'],
  },
  quiet: {
    requests: REQUESTS,
    failures: REQUESTS * 0.015,
    ratio: 0.015,
    burn: 3,
    rateLimit: REQUESTS * 0.01,
    alerts: ['ticket'],
  },
};
const TRUTH = TRUTHS.loud;
const SLO = 99.5;
const TOKEN = 'sampled-budgets-token-0123456789abcdef';
const FIXTURE = join(import.meta.dirname, 'fixtures', 'sampled-service.cjs');

interface Scenario {
  env: Record<string, string>;
  /** A tail sampler between the service and the collector. */
  tail?: { ratio: number; mark: boolean };
  /** Whether the requests and calls are exact (in-process counts) rather than estimated. */
  exactTotals: boolean;
  mix?: Mix;
}

const SCENARIOS: Record<string, Scenario> = {
  control: { env: {}, exactTotals: true },
  'head 10%, counted in process': {
    env: { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' },
    exactTotals: true,
  },
  'head 10%, estimated': {
    env: {
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.1',
      FAULTLINE_COUNTS: 'false',
    },
    exactTotals: false,
  },
  'tail 10% with th marks': {
    env: { FAULTLINE_COUNTS: 'false', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
    tail: { ratio: 0.1, mark: true },
    exactTotals: false,
  },
  'tail 10% without marks, counted in process': {
    env: { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
    tail: { ratio: 0.1, mark: false },
    exactTotals: true,
  },
  // Counted as stored, this one would read 45 failures in 339 calls (13%, 27×): a page.
  'tail 10% without marks, counted in process, a quiet mix': {
    env: { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
    tail: { ratio: 0.1, mark: false },
    exactTotals: true,
    mix: 'quiet',
  },
};

let ts: TestStore;
let collector: Collector;
let dependency: Server;
let dependencyUrl: string;
const results = new Map<string, Budgets>();

function answerAsDependency(): Server {
  return createServer((req, res) => {
    const kind = req.url?.split('/').pop();
    if (kind === '429') res.writeHead(429, { 'retry-after': '1' }).end('{"error":"slow down"}');
    else if (kind === '503') res.writeHead(503).end('{"error":"unavailable"}');
    else if (kind === '400') res.writeHead(400).end('{"error":"bad amount"}');
    else res.writeHead(200).end('{"ok":true}');
  });
}

async function drive(port: number, mix: Mix = 'loud'): Promise<void> {
  let next = 0;
  const one = (i: number) =>
    new Promise<void>((resolve, reject) => {
      get(`http://127.0.0.1:${port}/r/${MIXES[mix](i)}`, (res) => {
        res.resume();
        res.on('end', resolve);
      }).on('error', reject);
    });
  const worker = async () => {
    while (next < REQUESTS) await one(next++);
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

interface Running {
  port: number;
  stop(): Promise<void>;
}

/** One service under the real preload, exporting to `endpoint`, calling `dependency`. */
async function startService(
  service: string,
  endpoint: string,
  dependency: string,
  env: Record<string, string>,
): Promise<Running> {
  const { NODE_OPTIONS: _omit, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--require', '@faultline/instrumentation/register', FIXTURE], {
    env: {
      ...inherited,
      OTEL_SERVICE_NAME: service,
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer ${TOKEN}`,
      OTEL_BSP_SCHEDULE_DELAY: '200',
      OTEL_BSP_MAX_QUEUE_SIZE: '20000',
      DEPENDENCY_URL: dependency,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      const m = /port (\d+)/.exec(d.toString());
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`${service} exited (${code}) before listening`)));
  });
  return {
    port,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

type Budgets = { requests: ServiceBudget; calls: ServiceBudget; alerts: string[] };

/** The Overview's two budgets of each service, read as the page reads them. */
async function budgetsOf(services: string[], fromS: number): Promise<Map<string, Budgets>> {
  const toS = Math.floor(Date.now() / 1000) + 60;
  const settings = { slo: SLO, periodS: 30 * 86_400, toS, nowS: toS, callerFaults: 'exclude' as const };
  const out = new Map<string, Budgets>();
  for (const service of services) {
    const range = { from: fromS, to: toS, service, period_from: fromS, ...burnWindowParams() };
    const run: RunBudgetQuery = async (name, p) => (await ts.store.runNamed(`dashboard/${name}`, p)).rows;
    const [requestRows, callRows, failureRows] = await Promise.all([
      readRequestBudgetRows(run, range),
      readCallBudgetRows(run, { ...range, source: '' }),
      ts.store.runNamed('dashboard/budget_failures', { ...range, source: '', class: '', dependency: '' }),
    ]);
    const [requests] = computeBudgets(requestBudgetInputs(requestRows.rows, requestRows.exact), settings);
    const callInputs = callBudgetInputs(callRows.rows, failureRows.rows, callRows.exact);
    const [calls] = computeBudgets(callInputs, settings);
    // What the collector's evaluator would send for this service: it burns on the calls SLI.
    const alerts =
      calls && callInputs[0]
        ? judgeBurn(callInputs[0], calls, 'exclude')
            .map((f) => f.severity)
            .sort()
        : [];
    if (calls) out.set(service, { requests: requests ?? calls, calls, alerts });
  }
  return out;
}

async function runScenario(name: string, scenario: Scenario): Promise<void> {
  const service = `sampled-${Object.keys(SCENARIOS).indexOf(name)}-${process.pid}`;
  const headers = { authorization: `Bearer ${TOKEN}` };
  let proxy: TailSamplingProxy | undefined;
  if (scenario.tail)
    proxy = await startTailSamplingProxy({ target: collector.url, headers, ...scenario.tail });
  const startedS = Math.floor(Date.now() / 1000) - 60;
  const running = await startService(service, proxy?.url ?? collector.url, dependencyUrl, scenario.env);
  await drive(running.port, scenario.mix);
  await running.stop();
  if (proxy) {
    await proxy.flush();
    await proxy.close();
  }
  await collector.settle();
  const budgets = (await budgetsOf([service], startedS)).get(service);
  if (!budgets) throw new Error(`${name}: no budget for ${service}`);
  results.set(name, budgets);
}

/**
 * Mixed rates: `front` at 100% calls `back` at 25% (its own traceidratio, not its parent's
 * decision), which calls the dependency. Every failure happens at back; front's failed calls are
 * echoes of it, so front spends none of its calls budget, whatever back's sampler dropped.
 */
const mixed = { front: `mixed-front-${process.pid}`, back: `mixed-back-${process.pid}` };
let mixedBudgets: Map<string, Budgets>;

async function runMixed(): Promise<void> {
  const startedS = Math.floor(Date.now() / 1000) - 60;
  const back = await startService(mixed.back, collector.url, dependencyUrl, {
    OTEL_TRACES_SAMPLER: 'traceidratio',
    OTEL_TRACES_SAMPLER_ARG: '0.25',
  });
  const front = await startService(mixed.front, collector.url, `http://127.0.0.1:${back.port}/r`, {});
  await drive(front.port);
  await front.stop();
  await back.stop();
  await collector.settle();
  mixedBudgets = await budgetsOf([mixed.front, mixed.back], startedS);
}

beforeAll(async () => {
  ts = await openTestStore('sampled-budgets');
  collector = await startCollector({
    port: 0,
    store: ts.store,
    token: TOKEN,
    writerOptions: { spoolDir: ts.spoolDir, maxBatchDelayMs: 10 },
  });
  dependency = answerAsDependency();
  await new Promise<void>((resolve) => dependency.listen(0, '127.0.0.1', resolve));
  dependencyUrl = `http://127.0.0.1:${(dependency.address() as AddressInfo).port}`;
  for (const [name, scenario] of Object.entries(SCENARIOS)) await runScenario(name, scenario);
  await runMixed();
}, 500_000);

afterAll(async () => {
  await collector?.close();
  await new Promise<void>((resolve) => (dependency ? dependency.close(() => resolve()) : resolve()));
  await ts?.cleanup();
});

const within = (actual: number, truth: number, tolerance: number) =>
  expect(Math.abs(actual - truth) / truth, `${actual} against ${truth}`).toBeLessThanOrEqual(tolerance);

describe.each(Object.entries(SCENARIOS))('the Overview budget, %s', (name, scenario) => {
  const TRUTH = TRUTHS[scenario.mix ?? 'loud'];
  it('the burn-rate alerts fire as the truth says', () => {
    expect(results.get(name)!.alerts).toEqual(TRUTH.alerts);
  });
  for (const sli of ['requests', 'calls'] as const) {
    it(`${sli}: the total, the failures, the ratio, the burn and the top class hold to the truth`, () => {
      const b = results.get(name)![sli];
      if (scenario.exactTotals) expect(Math.round(b.total)).toBe(TRUTH.requests);
      else within(b.total, TRUTH.requests, 0.15);
      // Every failure is kept (by the preload, or by the tail sampler's error policy): exact.
      expect(Math.round(b.failures)).toBe(TRUTH.failures);
      expect(Math.round(b.failuresByClass.rate_limit ?? 0)).toBe(TRUTH.rateLimit);
      within(b.failures / b.total, TRUTH.ratio, scenario.exactTotals ? 0.001 : 0.2);
      within(b.burnRange ?? 0, TRUTH.burn, scenario.exactTotals ? 0.001 : 0.2);
      const top = Object.entries(b.failuresByClass).sort((x, y) => y[1] - x[1])[0]?.[0];
      expect(top).toBe('rate_limit');
    });
  }
});

describe('mixed rates: a service at 100% calling one at 25%', () => {
  it("front's entry requests: all of them, failed by back's first-hand failures", () => {
    const b = mixedBudgets.get(mixed.front)!.requests;
    expect(Math.round(b.total)).toBe(TRUTH.requests);
    expect(Math.round(b.failures)).toBe(TRUTH.failures);
    expect(Object.entries(b.failuresByClass).sort((x, y) => y[1] - x[1])[0]?.[0]).toBe('rate_limit');
  });

  it('front is not blamed for the failures of the callee its sampler did not decide on', () => {
    const b = mixedBudgets.get(mixed.front)!.calls;
    expect(Math.round(b.total)).toBe(TRUTH.requests);
    expect(b.failures).toBe(0);
    expect(b.callerFaults).toBe(0);
    expect(Math.round(b.propagated)).toBe(REQUESTS * 0.1);
  });

  it("back's calls: counted exactly in process, every failure first-hand", () => {
    const b = mixedBudgets.get(mixed.back)!.calls;
    expect(Math.round(b.total)).toBe(TRUTH.requests);
    expect(Math.round(b.failures)).toBe(TRUTH.failures);
    within(b.burnRange ?? 0, TRUTH.burn, 0.001);
  });
});

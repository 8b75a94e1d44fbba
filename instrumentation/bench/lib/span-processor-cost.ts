import { context, SpanKind, trace } from '@opentelemetry/api';
import { BasicTracerProvider, type ReadableSpan, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { CallCounter } from '../../src/preload/pipeline/call-counter.js';
import { createPreloadState } from '../../src/preload/pipeline/preload-state.js';
import { FaultlineSpanProcessor } from '../../src/preload/pipeline/span-processor.js';
import { readConfig } from '../../src/preload/sdk/config.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 100_000);
const ROUNDS = 7;

/** Stands in for the batch processor: touches each ended span so nothing is optimized away. */
let sink = 0;
const consumer: SpanProcessor = {
  onStart() {},
  onEnd(span: ReadableSpan) {
    sink += span.name.length;
  },
  forceFlush: () => Promise.resolve(),
  shutdown: () => Promise.resolve(),
};

/** The SDK alone, with the Faultline processor, and with it counting every call as the preload does. */
type Arm = 'sdk' | 'faultline' | 'counted';

function provider(arm: Arm): BasicTracerProvider {
  const state = createPreloadState(readConfig({}, {}).config);
  const counter = arm === 'counted' ? new CallCounter() : undefined;
  const spanProcessors = arm === 'sdk' ? [consumer] : [new FaultlineSpanProcessor(state, counter), consumer];
  return new BasicTracerProvider({ spanProcessors });
}

function requests(p: BasicTracerProvider, n: number, failEvery: number): void {
  const tracer = p.getTracer('bench');
  for (let i = 0; i < n; i++) {
    const server = tracer.startSpan('GET', {
      kind: SpanKind.SERVER,
      attributes: {
        'http.request.method': 'GET',
        'url.path': '/',
        'url.scheme': 'http',
        'server.address': '127.0.0.1',
      },
    });
    const client = tracer.startSpan(
      'GET',
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'http.request.method': 'GET',
          'url.full': 'http://127.0.0.1:8080/ok',
          'server.port': 8080,
        },
      },
      trace.setSpan(context.active(), server),
    );
    const failed = failEvery > 0 && i % failEvery === 0;
    client.setAttribute('http.response.status_code', failed ? 503 : 200);
    client.end();
    server.setAttribute('http.response.status_code', failed ? 502 : 200);
    server.end();
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

console.log(
  `span processor cost: ${REQUESTS.toLocaleString('en-US')} requests x ${ROUNDS} interleaved rounds per arm`,
);
for (const [label, failEvery] of [
  ['every call succeeds', 0],
  ['1 call in 5 fails (fail20)', 5],
  ['every call fails', 1],
] as const) {
  const arms = { sdk: provider('sdk'), faultline: provider('faultline'), counted: provider('counted') };
  const ns: Record<Arm, number[]> = { sdk: [], faultline: [], counted: [] };
  for (const arm of Object.values(arms)) requests(arm, REQUESTS / 10, failEvery);
  for (let round = 0; round < ROUNDS; round++) {
    const order: Arm[] = round % 2 ? ['counted', 'faultline', 'sdk'] : ['sdk', 'faultline', 'counted'];
    for (const name of order) {
      const t0 = process.cpuUsage();
      requests(arms[name], REQUESTS, failEvery);
      const t = process.cpuUsage(t0);
      ns[name].push(((t.user + t.system) * 1000) / REQUESTS);
    }
  }
  const sdk = median(ns.sdk);
  const added = median(ns.counted.map((f, i) => f - (ns.sdk[i] as number)));
  const counting = median(ns.counted.map((f, i) => f - (ns.faultline[i] as number)));
  console.log(
    `${label.padEnd(28)} SDK alone ${sdk.toFixed(0).padStart(6)} ns/request, with the Faultline processor +${added.toFixed(0)} ns/request, of which counting the calls +${counting.toFixed(0)} (paired per round)`,
  );
}
if (sink === 0) console.log('(no spans ended)');

import {
  type Attributes,
  type Context,
  context,
  createTraceState,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type Sampler,
  SamplingDecision,
  type SamplingResult,
} from '@opentelemetry/sdk-trace-base';

/**
 * The Retries and Workflows pages' numbers and the Overview's calls, counted by hand, for issue 30's
 * "every number opens exactly the rows it counts". Every span starts 20 minutes ago, a millisecond
 * apart, so range=1h holds them all. Traces are sampled as a head sampler marks them: `th:8` keeps
 * half (each span stands for 2), `th:c` a quarter (4), none unmarked (1).
 *
 * shop (its entry requests, one workflow and one trace each; steps are its outbound calls):
 *   ok2        ×3 th:8  GET api.vendor.test ok, INSERT postgresql shop ok           2 steps, ok
 *   ok1        ×2 —     GET api.vendor.test ok                                        1 step, ok
 *   retry-ok   ×2 th:c  GET … transient 503, then attempt 2 (after transient) ok     1 step, ok
 *   retry-fail ×1 —     GET … rate_limit 429, then attempt 2 (after rate_limit) 429   1 step, failed
 *   misroute   ×2 th:8  INSERT … validation 23505, then an identical attempt 2 (a
 *                       misrouted retry, after validation) 23505                      1 step, failed
 *   down       ×3 —     GET … transient ECONNREFUSED                                  1 step, failed
 * ledger: 3 SELECTs on postgresql ledger stored at th:c (the raw spans stand for 12), and the
 *   preload's exact in-process count of 7 for that minute (faultline.calls over /v1/metrics): the
 *   calls budget counts 7, the raw spans 12.
 */
export const LINK_TRUTH = {
  retries: {
    /** calls_1m: retries (attempt > 1), those that failed again, misrouted ones. */
    total: 2 * 4 + 1 + 2 * 2,
    failedAgain: 1 + 2 * 2,
    misrouted: 2 * 2,
    /** after class → retries, succeeded. */
    byClass: {
      transient: { retries: 8, succeeded: 8 },
      rate_limit: { retries: 1, succeeded: 0 },
      validation: { retries: 4, succeeded: 0 },
    } as Record<string, { retries: number; succeeded: number }>,
    /** "service/class/source/code" → wasted calls. */
    misroutedGroups: { 'shop/validation/db/23505': 4 } as Record<string, number>,
  },
  workflows: {
    total: 3 * 2 + 2 + 2 * 4 + 1 + 2 * 2 + 3,
    failed: 1 + 2 * 2 + 3,
    /** steps → workflows, succeeded. */
    bySteps: {
      1: { workflows: 2 + 8 + 1 + 4 + 3, succeeded: 2 + 8 },
      2: { workflows: 6, succeeded: 6 },
    } as Record<number, { workflows: number; succeeded: number }>,
    /** "class/service/source/code" → failed workflows. */
    firstFailures: {
      'rate_limit/shop/http/429': 1,
      'validation/shop/db/23505': 4,
      'transient/shop/http/ECONNREFUSED': 3,
    } as Record<string, number>,
  },
  /** Logical outbound calls as the calls budget counts them, and as the raw spans would. */
  calls: {
    shop: 3 * 2 * 2 + 2 + 2 * 2 * 4 + 2 + 2 * 2 * 2 + 3,
    ledger: 7,
    ledgerRawSpans: 3 * 4,
  },
};

/** The head sampler's mark for the next root span ('' = none); children inherit their parent's. */
let nextThreshold = '';

const markingSampler: Sampler = {
  shouldSample(ctx: Context): SamplingResult {
    const parent = trace.getSpanContext(ctx);
    if (parent || nextThreshold === '') return { decision: SamplingDecision.RECORD_AND_SAMPLED };
    return {
      decision: SamplingDecision.RECORD_AND_SAMPLED,
      traceState: createTraceState(`ot=th:${nextThreshold}`),
    };
  },
  toString: () => 'MarkingSampler',
};

function provider(service: string, otlpBaseUrl: string): BasicTracerProvider {
  return new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': service }),
    sampler: markingSampler,
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${otlpBaseUrl}/v1/traces` }))],
  });
}

type Failure = { cls: string; code: string };

const VENDOR: Attributes = {
  'http.request.method': 'GET',
  'url.full': 'https://api.vendor.test/items',
  'server.address': 'api.vendor.test',
  'server.port': '443',
  'faultline.source': 'http',
};
const SHOP_DB: Attributes = {
  'db.system.name': 'postgresql',
  'db.namespace': 'shop',
  'db.query.text': 'INSERT INTO orders VALUES ($1)',
  'faultline.source': 'db',
};

/** One attempt of a call: its envelope when it failed, its attempt number and what it followed. */
interface Attempt {
  failure?: Failure;
  attempt?: number;
  previousClass?: string;
  misrouted?: boolean;
}

function attemptAttrs(source: string, a: Attempt): Attributes {
  return {
    ...(a.failure
      ? {
          'faultline.class': a.failure.cls,
          'faultline.code': a.failure.code,
          'faultline.message': `${a.failure.code} (${a.failure.cls})`,
          'faultline.retryable': String(a.failure.cls === 'transient' || a.failure.cls === 'rate_limit'),
          'faultline.source': source,
        }
      : {}),
    ...(a.attempt ? { 'faultline.attempt': String(a.attempt) } : {}),
    ...(a.previousClass ? { 'faultline.previous_class': a.previousClass } : {}),
    ...(a.misrouted ? { 'faultline.misrouted_retry': 'true' } : {}),
  };
}

/** POST of the preload's exact call count for one minute, as OTLP/JSON. */
async function postExactCalls(otlpBaseUrl: string, service: string, atMs: number, calls: number) {
  const nanos = (ms: number) => `${BigInt(ms) * 1_000_000n}`;
  const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });
  const body = {
    resourceMetrics: [
      {
        resource: { attributes: [attr('service.name', service)] },
        scopeMetrics: [
          {
            scope: { name: '@faultline/number-links-e2e' },
            metrics: [
              {
                name: 'faultline.calls',
                sum: {
                  aggregationTemporality: 1,
                  isMonotonic: true,
                  dataPoints: [
                    {
                      asInt: String(calls),
                      startTimeUnixNano: nanos(atMs - 1000),
                      timeUnixNano: nanos(atMs),
                      attributes: [
                        attr('faultline.span_kind', 'Client'),
                        attr('faultline.source', 'db'),
                        attr('faultline.dependency', 'postgresql ledger'),
                      ],
                    },
                  ],
                },
              },
            ],
          },
        ],
      },
    ],
  };
  const res = await fetch(`${otlpBaseUrl}/v1/metrics`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`/v1/metrics answered ${res.status}: ${await res.text()}`);
}

/** Sends the scenario and the exact count; resolves when both were acknowledged. */
export async function sendNumberLinks(otlpBaseUrl: string): Promise<void> {
  const shop = provider('shop', otlpBaseUrl);
  const ledger = provider('ledger', otlpBaseUrl);
  const start = Date.now() - 20 * 60_000;
  let clock = start;
  const counters = new Map<string, number>();

  const call = (parent: Context, cid: string, name: string, attrs: Attributes, a: Attempt) => {
    const s = shop.getTracer('e2e').startSpan(
      name,
      {
        kind: SpanKind.CLIENT,
        startTime: clock++,
        attributes: {
          ...attrs,
          ...attemptAttrs(String(attrs['faultline.source']), a),
          'faultline.correlation_id': cid,
        },
      },
      parent,
    );
    if (a.failure) s.setStatus({ code: SpanStatusCode.ERROR });
    s.end(clock++);
  };

  /** `times` workflows of shop at sampling mark `th`, each one trace; `failed` marks the root failed. */
  function workflows(
    line: string,
    times: number,
    th: string,
    failed: boolean,
    inside: (ctx: Context, cid: string) => void,
  ) {
    for (let i = 0; i < times; i++) {
      const n = (counters.get(line) ?? 0) + 1;
      counters.set(line, n);
      const cid = `links-${line}-${n}`;
      nextThreshold = th;
      const root: Span = shop.getTracer('e2e').startSpan('POST /order', {
        kind: SpanKind.SERVER,
        startTime: clock++,
        attributes: { 'faultline.correlation_id': cid, 'http.request.method': 'POST', 'url.path': '/order' },
      });
      nextThreshold = '';
      inside(trace.setSpan(context.active(), root), cid);
      if (failed) root.setStatus({ code: SpanStatusCode.ERROR });
      root.end(clock++);
    }
  }

  workflows('ok2', 3, '8', false, (ctx, cid) => {
    call(ctx, cid, 'GET', VENDOR, {});
    call(ctx, cid, 'INSERT', SHOP_DB, {});
  });
  workflows('ok1', 2, '', false, (ctx, cid) => call(ctx, cid, 'GET', VENDOR, {}));
  workflows('retry-ok', 2, 'c', false, (ctx, cid) => {
    call(ctx, cid, 'GET', VENDOR, { failure: { cls: 'transient', code: '503' } });
    call(ctx, cid, 'GET', VENDOR, { attempt: 2, previousClass: 'transient' });
  });
  workflows('retry-fail', 1, '', true, (ctx, cid) => {
    const limited = { cls: 'rate_limit', code: '429' };
    call(ctx, cid, 'GET', VENDOR, { failure: limited });
    call(ctx, cid, 'GET', VENDOR, { failure: limited, attempt: 2, previousClass: 'rate_limit' });
  });
  workflows('misroute', 2, '8', true, (ctx, cid) => {
    const dup = { cls: 'validation', code: '23505' };
    call(ctx, cid, 'INSERT', SHOP_DB, { failure: dup });
    call(ctx, cid, 'INSERT', SHOP_DB, {
      failure: dup,
      attempt: 2,
      previousClass: 'validation',
      misrouted: true,
    });
  });
  workflows('down', 3, '', true, (ctx, cid) =>
    call(ctx, cid, 'GET', VENDOR, { failure: { cls: 'transient', code: 'ECONNREFUSED' } }),
  );

  // ledger: three SELECTs its sampler kept at a quarter, no request around them.
  for (let i = 0; i < 3; i++) {
    nextThreshold = 'c';
    const s = ledger.getTracer('e2e').startSpan('SELECT', {
      kind: SpanKind.CLIENT,
      startTime: clock++,
      attributes: {
        'db.system.name': 'postgresql',
        'db.namespace': 'ledger',
        'db.query.text': 'SELECT balance FROM accounts',
        'faultline.source': 'db',
      },
    });
    nextThreshold = '';
    s.end(clock++);
  }
  await postExactCalls(otlpBaseUrl, 'ledger', clock, LINK_TRUTH.calls.ledger);

  for (const p of [shop, ledger]) {
    await p.forceFlush();
    await p.shutdown();
  }
}

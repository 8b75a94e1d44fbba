import { Agent, request } from 'node:http';

const SPANS_PER_REQUEST = 50;
// One sequence for every load in the test process: span ids never repeat across instances.
let sequence = 0;

/** One OTLP/JSON export of SPANS_PER_REQUEST spans of `service`, each with fresh ids. */
export function otlpBody(service: string): string {
  const spans = [];
  for (let i = 0; i < SPANS_PER_REQUEST; i++) {
    sequence++;
    spans.push({
      traceId: `${'b'.repeat(16)}${sequence.toString(16).padStart(16, '0')}`,
      spanId: sequence.toString(16).padStart(16, '0'),
      name: 'load',
      kind: 3,
      startTimeUnixNano: String(1_732_886_400_000_000_000n + BigInt(sequence)),
      endTimeUnixNano: String(1_732_886_400_001_000_000n + BigInt(sequence)),
    });
  }
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] },
        scopeSpans: [{ spans }],
      },
    ],
  });
}

function post(url: string, agent: Agent, payload: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request(
      `${url}/v1/traces`,
      { method: 'POST', agent, headers: { 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(payload);
  });
}

export interface Load {
  /** Spans in requests answered 200: what the collector acknowledged. */
  acked(): number;
  statuses: Record<number, number>;
  /** Stops sending and resolves once every request in flight has its answer. */
  stop(): Promise<void>;
}

/** Keeps `workers` concurrent exporters posting to `url` until stopped (or refused: the process is gone). */
export function startLoad(url: string, service: string, workers = 6): Load {
  const agent = new Agent({ keepAlive: true, maxSockets: workers });
  const statuses: Record<number, number> = {};
  let acked = 0;
  let stopping = false;
  const running = Array.from({ length: workers }, async () => {
    while (!stopping) {
      const status = await post(url, agent, otlpBody(service));
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status === 200) acked += SPANS_PER_REQUEST;
      if (status === 0) return;
      if (status !== 200) await new Promise((r) => setTimeout(r, 20));
    }
  });
  return {
    acked: () => acked,
    statuses,
    async stop() {
      stopping = true;
      await Promise.all(running);
      agent.destroy();
    },
  };
}

/** Sends `requests` exports one after another; resolves with the spans acknowledged. */
export async function sendRequests(url: string, service: string, requests: number): Promise<number> {
  const agent = new Agent({ keepAlive: true });
  let acked = 0;
  for (let i = 0; i < requests; i++) {
    if ((await post(url, agent, otlpBody(service))) === 200) acked += SPANS_PER_REQUEST;
  }
  agent.destroy();
  return acked;
}

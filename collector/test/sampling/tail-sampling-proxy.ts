import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What a tail-sampling OpenTelemetry Collector does with a status-code policy beside a
 * probabilistic one: every trace with an error span is forwarded whole, and of the rest the
 * traces whose 56 random trace-id bits reach the threshold for `ratio` (the specification's
 * consistent decision). With `mark`, the kept traces' spans carry the probability they were kept
 * with in `ot=th` (error traces th:0); without it they are forwarded unchanged, as most tail
 * samplers do today. Metrics pass through unchanged, as a Collector's metrics pipeline passes them.
 * Traces are held until flush(): a tail sampler decides on whole traces.
 */
export interface TailSamplingProxy {
  url: string;
  flush(): Promise<{ traces: number; kept: number }>;
  close(): Promise<void>;
}

interface JsonSpan {
  traceId: string;
  traceState?: string;
  status?: { code?: number | string };
}
interface JsonExport {
  resourceSpans: { resource?: unknown; scopeSpans: { scope?: unknown; spans: JsonSpan[] }[] }[];
}

/** The rejection threshold for `ratio` as the specification writes it: 14 hex digits, trailing zeros dropped. */
export function thresholdHex(ratio: number): string {
  const t = BigInt(Math.round((1 - ratio) * 2 ** 56));
  const hex = t.toString(16).padStart(14, '0').replace(/0+$/, '');
  return hex === '' ? '0' : hex;
}

export async function startTailSamplingProxy(o: {
  target: string;
  headers: Record<string, string>;
  ratio: number;
  mark: boolean;
}): Promise<TailSamplingProxy> {
  const held: JsonExport[] = [];
  const threshold = BigInt(`0x${thresholdHex(o.ratio).padEnd(14, '0')}`);
  const forward = async (path: string, body: Buffer | string, contentType: string) => {
    const res = await fetch(`${o.target}${path}`, {
      method: 'POST',
      headers: { ...o.headers, 'content-type': contentType },
      // A copy in an ArrayBuffer of its own: what fetch's types take of a Buffer's bytes.
      body: typeof body === 'string' ? body : new Uint8Array(body).buffer,
    });
    if (!res.ok) throw new Error(`collector answered ${res.status} to ${path}: ${await res.text()}`);
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.url === '/v1/traces') {
        held.push(JSON.parse(body.toString('utf8')) as JsonExport);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      forward(req.url ?? '/', body, String(req.headers['content-type'] ?? 'application/x-protobuf')).then(
        () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'),
        (err: Error) => res.writeHead(502).end(err.message),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const isError = (s: JsonSpan) => s.status?.code === 2 || s.status?.code === 'STATUS_CODE_ERROR';
  return {
    url,
    async flush() {
      const errorTraces = new Set<string>();
      const traces = new Set<string>();
      for (const e of held)
        for (const rs of e.resourceSpans)
          for (const ss of rs.scopeSpans)
            for (const s of ss.spans) {
              traces.add(s.traceId);
              if (isError(s)) errorTraces.add(s.traceId);
            }
      const sampled = (traceId: string) => BigInt(`0x${traceId.slice(-14)}`) >= threshold;
      const kept = new Set([...traces].filter((t) => errorTraces.has(t) || sampled(t)));
      const th = thresholdHex(o.ratio);
      for (const e of held.splice(0)) {
        const out: JsonExport = {
          resourceSpans: e.resourceSpans.map((rs) => ({
            ...rs,
            scopeSpans: rs.scopeSpans.map((ss) => ({
              ...ss,
              spans: ss.spans
                .filter((s) => kept.has(s.traceId))
                .map((s) =>
                  o.mark ? { ...s, traceState: `ot=th:${errorTraces.has(s.traceId) ? '0' : th}` } : s,
                ),
            })),
          })),
        };
        await forward('/v1/traces', JSON.stringify(out), 'application/json');
      }
      return { traces: traces.size, kept: kept.size };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

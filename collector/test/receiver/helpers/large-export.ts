import { request } from 'node:http';

/**
 * An OTLP/JSON export of `spans` spans in one trace, each carrying `attributes` string attributes of
 * ~70 characters (plus an int), so the body's size is set by the attribute count: 9 000 spans × 53
 * attributes ≈ 56 MiB, under the default per-request limits (10 000 spans, 64 MiB inflated).
 */
export function largeJsonExport(traceId: string, spans: number, attributes: number): string {
  const start = BigInt(Date.now()) * 1_000_000n;
  const attrs: object[] = [];
  for (let i = 0; i < attributes; i++) {
    attrs.push({ key: `attr.key.${i}`, value: { stringValue: `value ${i} `.padEnd(70, 'x') } });
  }
  const list: object[] = [];
  for (let i = 0; i < spans; i++) {
    const t = start + BigInt(i) * 1_000n;
    list.push({
      traceId,
      spanId: (i + 1).toString(16).padStart(16, '0'),
      name: `GET /items/${i % 50}`,
      kind: 3,
      startTimeUnixNano: t.toString(),
      endTimeUnixNano: (t + 5_000_000n).toString(),
      attributes: [{ key: 'i', value: { intValue: String(i) } }, ...attrs],
    });
  }
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'large' } }] },
        scopeSpans: [{ scope: { name: 'large-export' }, spans: list }],
      },
    ],
  });
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * POSTs through node:http, so a test controls the upload: `chunks` are written one by one
 * (chunked transfer unless `content-length` is set), each after `beforeChunk(i)` resolves.
 */
export function postChunks(
  url: string,
  chunks: Buffer[],
  headers: Record<string, string | number>,
  beforeChunk: (i: number) => Promise<void> = async () => {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = request(
      { host: u.hostname, port: u.port, path: '/v1/traces', method: 'POST', headers },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }),
        );
      },
    );
    req.on('error', reject);
    void (async () => {
      for (let i = 0; i < chunks.length; i++) {
        await beforeChunk(i);
        req.write(chunks[i]);
      }
      req.end();
    })().catch(reject);
  });
}

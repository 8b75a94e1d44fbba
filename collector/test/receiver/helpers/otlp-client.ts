import { gzipSync } from 'node:zlib';

export interface PostResult {
  status: number;
  headers: Headers;
  body: Buffer;
}

/** POSTs a raw body to the collector (the official exporters cover well-formed traffic). */
export async function postTraces(
  url: string,
  body: Buffer | string,
  headers: Record<string, string> = { 'content-type': 'application/json' },
  options: { gzip?: boolean; path?: string; method?: string } = {},
): Promise<PostResult> {
  let payload = typeof body === 'string' ? Buffer.from(body) : body;
  const h = { ...headers };
  if (options.gzip) {
    payload = gzipSync(payload);
    h['content-encoding'] = 'gzip';
  }
  const res = await fetch(`${url}${options.path ?? '/v1/traces'}`, {
    method: options.method ?? 'POST',
    headers: h,
    body: options.method === 'GET' ? undefined : new Uint8Array(payload),
  });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

let counter = 0;

/** A unique, valid 32-hex trace id (tests share one store per file). */
export function newTraceId(): string {
  counter++;
  return `${Date.now().toString(16).padStart(16, '0')}${counter.toString(16).padStart(8, '0')}${Math.floor(
    Math.random() * 0xffffffff,
  )
    .toString(16)
    .padStart(8, '0')}`;
}

/** An OTLP/JSON export request with one resource, one scope and the given spans. */
export function jsonRequest(serviceName: string, spans: object[]): string {
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: serviceName } }] },
        scopeSpans: [{ scope: { name: 'h4b-test', version: '1.0.0' }, spans }],
      },
    ],
  });
}

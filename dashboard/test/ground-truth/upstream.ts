import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One answer the upstream gave, so the test can check the fixture did what scenario.ts says. */
export interface UpstreamHit {
  correlationId: string;
  method: string;
  /** Path and query, e.g. `/v1/stock?fault=503&times=3`; `aws <Operation> <table>` for DynamoDB. */
  target: string;
  status: number;
}

export interface Upstream {
  url: string;
  hits: UpstreamHit[];
  close(): Promise<void>;
}

/** The correlation id the caller's preload put into W3C baggage (the upstream is not instrumented). */
function correlationIdOf(baggage: string | string[] | undefined): string {
  for (const entry of String(baggage ?? '').split(',')) {
    const [key, value] = entry.split(';')[0]!.split('=');
    if (key?.trim() === 'faultline.correlation_id' && value) return decodeURIComponent(value.trim());
  }
  return '';
}

/**
 * The uninstrumented dependency of the ground-truth services, in the test process:
 * - `?fault=<status>&times=<n>` fails the first n calls of that path in one correlation id (no
 *   `times`: every call), then answers 200 {"ok":true}. Error bodies carry no vendor code, so the
 *   code is the status.
 * - `?fault=ok_false` answers 200 {"ok":false,"error":{"code":"card_declined",…}} in two writes, so
 *   it goes out chunked, without Content-Length.
 * - `/aws`: DynamoDB (awsJson1_0). PutItem on table `fl_gt_throttled` is throttled once per item id
 *   (400, `__type` …#ThrottlingException, x-amzn-ErrorType), as DynamoDB answers.
 */
export async function startUpstream(): Promise<Upstream> {
  const hits: UpstreamHit[] = [];
  const seen = new Map<string, number>();
  const nth = (key: string) => {
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    return n;
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const correlationId = correlationIdOf(req.headers.baggage);
      const url = new URL(req.url ?? '/', 'http://upstream');
      const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
      };

      if (url.pathname.startsWith('/aws')) {
        const input = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
          TableName?: string;
          Item?: { id?: { S?: string } };
        };
        const operation = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
        const throttled =
          input.TableName === 'fl_gt_throttled' && nth(`aws|${input.Item?.id?.S ?? ''}`) === 1;
        hits.push({
          correlationId,
          method: req.method ?? '',
          target: `aws ${operation} ${input.TableName}`,
          status: throttled ? 400 : 200,
        });
        const headers = {
          'content-type': 'application/x-amz-json-1.0',
          'x-amzn-requestid': `gt-${hits.length}`,
        };
        if (throttled) {
          json(
            400,
            {
              __type: 'com.amazonaws.dynamodb.v20120810#ThrottlingException',
              message: 'Rate of requests exceeds the allowed throughput.',
            },
            { ...headers, 'x-amzn-ErrorType': 'ThrottlingException' },
          );
        } else json(200, {}, headers);
        return;
      }

      const fault = url.searchParams.get('fault');
      const times = Number(url.searchParams.get('times') ?? Number.POSITIVE_INFINITY);
      const failing = fault !== null && nth(`${url.pathname}|${correlationId}`) <= times;
      const status = !failing || fault === 'ok_false' ? 200 : Number(fault);
      hits.push({ correlationId, method: req.method ?? '', target: `${url.pathname}${url.search}`, status });
      if (failing && fault === 'ok_false') {
        // Two writes before end(): Node sends Transfer-Encoding: chunked, no Content-Length.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"ok":false,');
        res.end('"error":{"code":"card_declined","message":"Your card was declined"}}');
      } else if (failing) json(status, { message: `injected ${status}` });
      else json(200, { ok: true, id: `${url.pathname.split('/').pop()}_${hits.length}` });
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      }),
  };
}

// The local upstream the demo services call: an HTTP API that injects the failure a request asks
// for (`?fault=429&times=1&key=…` fails the first `times` calls for that key, then succeeds;
// `fault=ok_false` answers 200 {"ok":false,…} chunked), and
// a DynamoDB-compatible endpoint answering in AWS's JSON error format, so the real AWS SDK raises
// its real ThrottlingException.
import { createServer } from 'node:http';

const BODIES = {
  400: { error: { code: 'invalid_amount', message: 'amount must be a positive integer of cents' } },
  401: { error: { code: 'invalid_api_key', message: 'The API key provided is not valid' } },
  404: { error: { code: 'resource_missing', message: 'No such customer' } },
  429: { error: { code: 'rate_limited', message: 'Too many requests, slow down' } },
  503: { error: { code: 'unavailable', message: 'The service is temporarily overloaded' } },
};

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res, status, body, headers = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export async function startUpstream() {
  const seen = new Map();
  // Fails the first `times` calls per key; later calls succeed (what a retry sees).
  const shouldFail = (key, times) => {
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    if (seen.size > 50_000) seen.delete(seen.keys().next().value);
    return n <= times;
  };

  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://upstream');
      const body = await readBody(req);
      if (url.pathname.startsWith('/aws')) return dynamo(req, body, res);
      const fault = url.searchParams.get('fault');
      const times = Number(url.searchParams.get('times') ?? 1_000_000);
      const key = `${url.pathname}|${url.searchParams.get('key') ?? ''}`;
      if (fault && shouldFail(key, times)) {
        if (fault === 'ok_false') {
          // Two writes before end(): sent chunked, without Content-Length, as streaming APIs do.
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('{"ok":false,');
          res.end('"error":{"code":"card_declined","message":"Your card was declined"}}');
          return;
        }
        const status = Number(fault);
        return send(
          res,
          status,
          BODIES[status] ?? { error: 'injected' },
          status === 429 ? { 'retry-after': '1' } : {},
        );
      }
      return send(res, 200, { ok: true, id: `${url.pathname.split('/').pop()}_${seen.size}` });
    } catch (err) {
      send(res, 500, { error: String(err) });
    }
  });

  function dynamo(_req, body, res) {
    // awsJson1_0: the operation is in X-Amz-Target, the table in the JSON body.
    let input = {};
    try {
      input = JSON.parse(body);
    } catch {}
    const key = `aws|${input.Item?.id?.S ?? ''}`;
    if (input.TableName === 'fl_demo_throttled' && shouldFail(key, 1)) {
      return send(
        res,
        400,
        {
          __type: 'com.amazonaws.dynamodb.v20120810#ThrottlingException',
          message: 'Rate of requests exceeds the allowed throughput.',
        },
        {
          'content-type': 'application/x-amz-json-1.0',
          'x-amzn-requestid': `demo-${Date.now()}`,
          'x-amzn-errortype': 'ThrottlingException',
        },
      );
    }
    send(
      res,
      200,
      {},
      { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': `demo-${Date.now()}` },
    );
  }

  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((ok) => server.close(ok)),
  };
}

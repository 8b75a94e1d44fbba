// The example service of docker-compose.yml, run under the preload:
//   node --import @faultline/instrumentation/register deploy/example/checkout.mjs
// It serves POST /checkout, which calls a payments upstream it also starts (on PAYMENTS_PORT) that
// answers like a real one under load: 429 with Retry-After one call in five, 503 one in ten, else
// 200. A loop sends itself a checkout every LOAD_INTERVAL_MS, so the dashboard fills without a client.
import { createServer } from 'node:http';

const port = Number(process.env.PORT ?? 8080);
const paymentsPort = Number(process.env.PAYMENTS_PORT ?? 8081);
const intervalMs = Number(process.env.LOAD_INTERVAL_MS ?? 500);

let n = 0;
const payments = createServer((req, res) => {
  req.resume();
  n++;
  if (n % 5 === 0) {
    res.writeHead(429, { 'retry-after': '2', 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 'rate_limited', message: 'Too many requests' } }));
  } else if (n % 10 === 3) {
    res.writeHead(503, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 'unavailable', message: 'upstream overloaded' } }));
  } else {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ok: true, id: `ch_${n}` }));
  }
});

const app = createServer(async (req, res) => {
  req.resume();
  if (req.method !== 'POST' || req.url !== '/checkout') {
    res.writeHead(404).end();
    return;
  }
  const charge = await fetch(`http://127.0.0.1:${paymentsPort}/v1/charges`, {
    method: 'POST',
    body: '{}',
  }).catch((err) => ({ ok: false, status: 502, text: async () => String(err) }));
  const body = await charge.text();
  res.writeHead(charge.ok ? 200 : 502, { 'content-type': 'application/json' });
  res.end(charge.ok ? body : JSON.stringify({ error: 'payment failed' }));
});

payments.listen(paymentsPort, '127.0.0.1');
app.listen(port, '0.0.0.0', () => console.log(`checkout on :${port}, payments on 127.0.0.1:${paymentsPort}`));
setInterval(() => {
  fetch(`http://127.0.0.1:${port}/checkout`, { method: 'POST' }).catch(() => {});
}, intervalMs).unref();

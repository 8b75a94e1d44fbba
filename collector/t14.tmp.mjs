import { openStore, insertBatch, serializeRows } from './dist/index.js';
import { randomBytes } from 'node:crypto';
const s = await openStore({ dataDir: '/tmp/h4a/db14' });
const mk = (i) => ({ Timestamp: `${1764417600 + (i % 3600)}.${String(i % 1e9).padStart(9, '0')}`, TraceId: randomBytes(16).toString('hex'), SpanId: randomBytes(8).toString('hex'), ParentSpanId: randomBytes(8).toString('hex'), TraceState: '', SpanName: `GET /api/${i % 20}`, SpanKind: i % 2 ? 'Client' : 'Server', ServiceName: `svc-${i % 5}`, ResourceAttributes: { 'service.name': `svc-${i % 5}`, 'host.name': 'web-1', 'process.pid': '1234', 'telemetry.sdk.language': 'nodejs' }, ScopeName: '@opentelemetry/instrumentation-http', ScopeVersion: '0.223.0', SpanAttributes: { 'http.request.method': 'GET', 'url.full': `https://api.example.com/v1/items/${i}`, 'http.response.status_code': '200', 'faultline.source': 'http', 'faultline.correlation_id': `req-${i}` , ...(i % 10 === 0 ? { 'faultline.class': 'transient', 'faultline.code': '503', 'faultline.message': 'Service unavailable', 'faultline.retryable': 'true' } : {}) }, Duration: 1000000 + i, StatusCode: i % 10 === 0 ? 'Error' : 'Unset', StatusMessage: '', 'Events.Timestamp': [], 'Events.Name': [], 'Events.Attributes': [], 'Links.TraceId': [], 'Links.SpanId': [], 'Links.TraceState': [], 'Links.Attributes': [] });
const N = 51200; const rows = Array.from({ length: N }, (_, i) => mk(i));
const json = serializeRows(rows);
const cols = Object.keys(rows[0]);
const compact = rows.map((r) => JSON.stringify(cols.map((c) => r[c]))).join('\n') + '\n';
await insertBatch(s.client, json.slice(0, 5000 * 0));
for (let rep = 0; rep < 3; rep++) {
  let t = performance.now(); await insertBatch(s.client, json); const a = N / ((performance.now() - t) / 1000);
  t = performance.now(); await insertBatch(s.client, compact, { format: 'JSONCompactEachRow' }); const b = N / ((performance.now() - t) / 1000);
  console.log('JSONEachRow', Math.round(a), 'JSONCompactEachRow', Math.round(b));
}
await s.close();

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Collector, startCollector } from '../../src/index.js';
import { openTestStore, type TestStore } from '../receiver/helpers/test-store.js';

// Stock auto-instrumentation, configured only by the standard OTEL_* variables with the gRPC
// protocol (the default of the Python, Go and Java SDKs), sends to the collector's gRPC port.
const TOKEN = 'grpc-auto-token-0123456789abcdef';
let ts: TestStore;
let collector: Collector;

beforeAll(async () => {
  ts = await openTestStore('grpc-auto');
  collector = await startCollector({
    port: 0,
    store: ts.store,
    token: TOKEN,
    writerOptions: { spoolDir: ts.spoolDir, maxBatchDelayMs: 10 },
  });
});

afterAll(async () => {
  await collector?.close();
  await ts?.cleanup();
});

function runApp(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const { NODE_OPTIONS: _omit, ...inherited } = process.env;
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--require',
        '@opentelemetry/auto-instrumentations-node/register',
        join(import.meta.dirname, 'fixtures/http-call.cjs'),
      ],
      { env: { ...inherited, ...env }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

it('lands the spans of an auto-instrumented app exporting over OTLP/gRPC', async () => {
  const service = `grpc-auto-${process.pid}`;
  const { code, stderr } = await runApp({
    OTEL_SERVICE_NAME: service,
    OTEL_TRACES_EXPORTER: 'otlp',
    OTEL_METRICS_EXPORTER: 'none',
    OTEL_LOGS_EXPORTER: 'none',
    OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.grpcUrl,
    OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer ${TOKEN}`,
    OTEL_NODE_RESOURCE_DETECTORS: 'env',
    // Only the HTTP spans (net and dns would add a connect and a lookup).
    OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'http',
    OTEL_BSP_SCHEDULE_DELAY: '50',
    OTEL_LOG_LEVEL: 'warn',
  });
  expect(code, stderr).toBe(0);

  await collector.writer.settle();
  const { rows } = await ts.store.runReadOnly<Record<string, unknown>>(
    'SELECT SpanName, SpanKind, SpanAttributes, ScopeName FROM otel_traces WHERE ServiceName = {s:String} ORDER BY SpanKind',
    { s: service },
  );
  expect(rows.map((r) => r.SpanKind)).toEqual(['Client', 'Server']);
  const client = rows[0]!;
  expect(client.ScopeName).toBe('@opentelemetry/instrumentation-http');
  expect(client.SpanAttributes).toMatchObject({ 'http.response.status_code': '503' });
  // Each span stored once.
  expect(collector.writer.stats().accepted).toBe(2);
});

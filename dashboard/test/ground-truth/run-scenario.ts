import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { ROOT } from '../support/faultline-process';
import { REQUESTS } from './scenario';
import { startUpstream, type UpstreamHit } from './upstream';

const SERVICES_DIR = resolve(import.meta.dirname, 'services');

export interface ScenarioRun {
  /** Correlation ids are `${prefix}-1…12`, in REQUESTS order. */
  prefix: string;
  /** The status edge answered for each request, in REQUESTS order. */
  statuses: number[];
  /** What the upstream answered, in arrival order. */
  hits: UpstreamHit[];
}

interface Service {
  url: string;
  child: ChildProcess;
  stderr: string[];
}

/** One fixture service under the real preload, exporting to the Faultline under test. */
function startService(name: string, otlpUrl: string, env: Record<string, string>): Promise<Service> {
  return new Promise((ok, ko) => {
    const child = spawn(
      process.execPath,
      [
        '--disable-warning=NodeVersionSupportWarning',
        '--import',
        '@faultline/instrumentation/register',
        resolve(SERVICES_DIR, `${name}.mjs`),
      ],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          OTEL_SERVICE_NAME: name,
          OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl,
          OTEL_BSP_SCHEDULE_DELAY: '200',
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const stderr: string[] = [];
    createInterface({ input: child.stderr! }).on('line', (line) => stderr.push(line));
    const timer = setTimeout(
      () => ko(new Error(`${name} did not start in 30 s:\n${stderr.join('\n')}`)),
      30_000,
    );
    child.once('exit', (code) => ko(new Error(`${name} exited with ${code}:\n${stderr.join('\n')}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /^ready (\d+)$/.exec(line);
      if (m) {
        clearTimeout(timer);
        ok({ url: `http://127.0.0.1:${m[1]}`, child, stderr });
      }
    });
  });
}

/** SIGTERM: the preload flushes its spans to the collector before the process exits. */
function stopService(service: Service): Promise<void> {
  return new Promise((ok) => {
    if (service.child.exitCode !== null) return ok();
    service.child.once('exit', () => ok());
    service.child.kill('SIGTERM');
    setTimeout(() => service.child.kill('SIGKILL'), 10_000).unref();
  });
}

/**
 * Runs the ground-truth scenario against the collector at `otlpUrl`: tables, upstream, the three
 * services, the twelve requests one after the other, then stops everything so every span is sent.
 */
export async function runScenario(otlpUrl: string): Promise<ScenarioRun> {
  const prefix = `gt-${Date.now().toString(36)}`;
  const deadlockRequest = REQUESTS.find((r) => r.scenario === 'pg_deadlock')!;
  await promisify(execFile)(
    process.execPath,
    [resolve(SERVICES_DIR, 'prepare.mjs'), `${prefix}-${deadlockRequest.n}`],
    {
      cwd: ROOT,
    },
  );
  const upstream = await startUpstream();
  const services: Service[] = [];
  try {
    const env = { UPSTREAM_URL: upstream.url };
    const [orders, billing] = await Promise.all([
      startService('orders', otlpUrl, env),
      startService('billing', otlpUrl, env),
    ]);
    services.push(orders, billing);
    const edge = await startService('edge', otlpUrl, { ORDERS_URL: orders.url, BILLING_URL: billing.url });
    services.push(edge);

    const statuses: number[] = [];
    for (const request of REQUESTS) {
      const order = `${prefix}-${request.n}`;
      const res = await fetch(`${edge.url}/order`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-correlation-id': order },
        body: JSON.stringify({
          scenario: request.scenario,
          order,
          ...(request.item ? { item: 'book' } : {}),
        }),
      });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    return { prefix, statuses, hits: upstream.hits };
  } finally {
    await Promise.all(services.map(stopService));
    await upstream.close();
  }
}

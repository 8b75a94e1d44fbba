import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OtlpReceiver, startOtlpReceiver } from './helpers/otlp-receiver.js';
import { type FixtureResult, runFixture } from './helpers/run-fixture.js';
import { startUpstream, type Upstream } from './helpers/upstream.js';

/**
 * Issue 28: when the team's own SDK registered first (its own preload before Faultline's), the
 * preload refuses to register a second one with a single line on stderr, and the application runs
 * exactly as it does bare, traced by its own SDK only.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const FIXTURE = { import: 'script.mjs', require: 'script.cjs' } as const;
type Mode = keyof typeof FIXTURE;

async function runAfterOwnSdk(mode: Mode, env: Record<string, string>): Promise<FixtureResult> {
  const flag = `--${mode}`;
  const child = spawn(
    process.execPath,
    [
      flag,
      `${FIXTURES}own-sdk-register.cjs`,
      flag,
      '@faultline/instrumentation/register',
      `${FIXTURES}${FIXTURE[mode]}`,
    ],
    { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  return { code, signal, stdout, stderr };
}

describe.each(['require', 'import'] as const)('--%s of the preload after an SDK registered', (mode) => {
  let upstream: Upstream;
  let receiver: OtlpReceiver;
  let bare: FixtureResult;
  let refused: FixtureResult;

  beforeAll(async () => {
    [upstream, receiver] = await Promise.all([startUpstream(), startOtlpReceiver()]);
    const env = { UPSTREAM_URL: upstream.url };
    [bare, refused] = await Promise.all([
      runFixture({ fixture: FIXTURE[mode], mode: 'none', env }),
      runAfterOwnSdk(mode, {
        ...env,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_SERVICE_NAME: `fl-i28-refusal-${mode}`,
        OTEL_LOGS_EXPORTER: 'none',
        OTEL_METRICS_EXPORTER: 'none',
      }),
    ]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([upstream?.close(), receiver?.close()]);
  });

  it('prints one line saying why and where to go instead', () => {
    const lines = refused.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^\[faultline\] an OpenTelemetry SDK is already registered in this process, so the preload stays off: .*@faultline\/instrumentation\/sdk/,
    );
  });

  it('runs the application as it runs bare', () => {
    expect(bare.code).toBe(3);
    expect({ code: refused.code, stdout: refused.stdout }).toEqual({ code: bare.code, stdout: bare.stdout });
  });

  it("leaves the tracing to the application's SDK: its spans, none of the preload's", () => {
    expect(receiver.spans.length).toBeGreaterThan(0);
    for (const span of receiver.spans) {
      expect(span.service).toBe(`fl-i28-refusal-${mode}`);
      expect(Object.keys(span.wireAttributes).filter((k) => k.startsWith('faultline.'))).toEqual([]);
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OtlpReceiver, startOtlpReceiver } from './helpers/otlp-receiver.js';
import { type FixtureResult, runFixture } from './helpers/run-fixture.js';
import { closedPortUrl, startUpstream, type Upstream } from './helpers/upstream.js';

describe.each(['script.mjs', 'script.cjs'])('a batch job (%s) under the preload', (fixture) => {
  let upstream: Upstream;
  let receiver: OtlpReceiver;
  let bare: FixtureResult;
  let imported: FixtureResult;
  let required: FixtureResult;
  let unreachable: FixtureResult;

  beforeAll(async () => {
    [upstream, receiver] = await Promise.all([startUpstream(), startOtlpReceiver()]);
    const env = { UPSTREAM_URL: upstream.url, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url };
    [bare, imported, required, unreachable] = await Promise.all([
      runFixture({ fixture, mode: 'none', env }),
      runFixture({ fixture, mode: 'import', env: { ...env, OTEL_SERVICE_NAME: 'fl-h3-import' } }),
      runFixture({ fixture, mode: 'require', env: { ...env, OTEL_SERVICE_NAME: 'fl-h3-require' } }),
      // A collector that refuses connections must cost nothing visible either.
      runFixture({
        fixture,
        mode: 'import',
        env: { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: await closedPortUrl() },
      }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([upstream?.close(), receiver?.close()]);
  });

  it('prints the same output and exits with the same code', () => {
    expect(bare.code).toBe(3);
    expect(bare.stdout).toContain('pg 42P01');
    for (const run of [imported, required, unreachable]) {
      expect({ code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({
        code: bare.code,
        stdout: bare.stdout,
        stderr: bare.stderr,
      });
    }
  });

  it('flushes its spans before a natural exit, envelopes included', () => {
    for (const service of ['fl-h3-import', 'fl-h3-require']) {
      const spans = receiver.spans.filter((s) => s.service === service);
      const pgFailed = spans.find((s) => s.attributes['faultline.code'] === '42P01');
      expect(pgFailed?.attributes['faultline.source']).toBe('db');
      const silent = spans.filter((s) => s.attributes['faultline.code'] === 'insufficient_funds');
      expect(silent).toHaveLength(2);
    }
  });
});

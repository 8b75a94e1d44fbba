import { HttpInstrumentation, type HttpInstrumentationConfig } from '@opentelemetry/instrumentation-http';
import { MySQL2Instrumentation } from '@opentelemetry/instrumentation-mysql2';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { describe, expect, it } from 'vitest';
import { PgErrorInstrumentation } from '../../src/preload/clients/pg/index.js';
import { createPreloadState } from '../../src/preload/pipeline/preload-state.js';
import { composeHooks } from '../../src/preload/sdk/compose-hooks.js';
import { readConfig } from '../../src/preload/sdk/config.js';
import { rebuildInstrumentations } from '../../src/preload/sdk/rebuild-instrumentations.js';

describe('composeHooks', () => {
  it("runs both hooks, Faultline's first unless asked, and keeps the other options", () => {
    const calls: string[] = [];
    const config = { keep: 1, hook: (x: string) => calls.push(`user ${x}`) };
    const ours = { hook: (x: string) => calls.push(`ours ${x}`), added: undefined };
    composeHooks(config, ours).hook('a');
    composeHooks(config, ours, true).hook('b');
    expect(calls).toEqual(['ours a', 'user a', 'user b', 'ours b']);
    expect(composeHooks(config, ours).keep).toBe(1);
    const bare: { keep: number; hook?: (x: string) => number } = { keep: 2 };
    expect(composeHooks(bare, ours).hook).toBe(ours.hook);
  });
});

describe('rebuildInstrumentations', () => {
  const state = createPreloadState(readConfig({}, {}).config);
  // Disabled throughout: the test process's own modules stay unpatched (and it proves the switch carries).
  const ignoreIncomingRequestHook = () => true;

  it("swaps the hooked instrumentations for the preload's clients with the application's config", () => {
    const userHook = () => undefined;
    const http = new HttpInstrumentation({
      enabled: false,
      ignoreIncomingRequestHook,
      requestHook: userHook,
    });
    const pg = new PgInstrumentation({ enabled: false, requireParentSpan: true });
    const mysql2 = new MySQL2Instrumentation({ enabled: false });
    const [ourHttp, ourPg, sameMysql2] = rebuildInstrumentations(state, [[http, pg], mysql2]);
    expect(ourHttp).not.toBe(http);
    expect(ourHttp?.instrumentationName).toBe('@opentelemetry/instrumentation-http');
    const httpConfig = ourHttp?.getConfig() as HttpInstrumentationConfig;
    expect(httpConfig).toMatchObject({ enabled: false, ignoreIncomingRequestHook });
    expect(typeof httpConfig.responseHook).toBe('function');
    expect(httpConfig.requestHook).not.toBe(userHook);
    expect(ourPg).toBeInstanceOf(PgErrorInstrumentation);
    expect(ourPg?.getConfig()).toMatchObject({ enabled: false, requireParentSpan: true });
    // mysql2's error arrives on its own channels: the application's instance stays.
    expect(sameMysql2).toBe(mysql2);
    // A second pass leaves Faultline's own instances alone.
    const again = rebuildInstrumentations(
      state,
      [ourHttp, ourPg, sameMysql2].filter((i) => i !== undefined),
    );
    expect(again).toEqual([ourHttp, ourPg, sameMysql2]);
  });

  it("runs the application's pg requestHook before Faultline's", () => {
    const seen: string[] = [];
    const pg = new PgInstrumentation({ enabled: false, requestHook: () => seen.push('user') });
    const [ours] = rebuildInstrumentations(state, [pg]);
    const config = ours?.getConfig() as { requestHook?: (span: unknown, info: unknown) => void } | undefined;
    config?.requestHook?.({ isRecording: () => false }, {});
    expect(seen).toEqual(['user']);
  });
});

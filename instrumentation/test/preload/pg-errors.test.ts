import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OtlpReceiver, startOtlpReceiver } from './helpers/otlp-receiver.js';
import { type FixtureResult, runFixture } from './helpers/run-fixture.js';
import { dbClientSpans, envelopeOf, STATUS_ERROR } from './helpers/spans.js';

describe.each(['import', 'require'] as const)('pg driver errors under --%s', (mode) => {
  let receiver: OtlpReceiver;
  let run: FixtureResult;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    run = await runFixture({
      fixture: 'pg-errors.mjs',
      mode,
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: `fl-h9-pg-${mode}` },
    });
  });

  afterAll(async () => {
    await receiver?.close();
  });

  const failed = () =>
    dbClientSpans(receiver.spans, 'postgresql').filter((s) => s.statusCode === STATUS_ERROR);

  it('leaves the application results unchanged', () => {
    expect({ code: run.code, stdout: run.stdout }).toEqual({
      code: 0,
      stdout: 'unique 23505\ncallback 42P01\n',
    });
  });

  it('takes message, code and raw from the driver error, not the instrumentation summary', () => {
    const unique = envelopeOf(failed().find((s) => s.attributes['faultline.code'] === '23505'));
    expect(unique).toMatchObject({ class: 'validation', source: 'db', retryable: false });
    expect(unique.message).toMatch(
      /^duplicate key value violates unique constraint "fl_h9_accounts_\d+_email_key"$/,
    );
    expect(JSON.parse(String(unique.raw))).toMatchObject({
      code: '23505',
      severity: 'ERROR',
      schema: 'public',
      table: expect.stringMatching(/^fl_h9_accounts_\d+$/),
      constraint: expect.stringMatching(/_email_key$/),
      detail: expect.stringContaining('already exists'),
      routine: '_bt_check_unique',
    });
  });

  it('reaches the driver error through the callback API too', () => {
    const missing = envelopeOf(failed().find((s) => s.attributes['faultline.code'] === '42P01'));
    expect(missing.message).toBe('relation "fl_h9_missing_table" does not exist');
    expect(JSON.parse(String(missing.raw))).toMatchObject({ code: '42P01', routine: 'parserOpenTable' });
    for (const span of failed())
      expect(String(span.attributes['faultline.message'])).not.toContain('of type');
  });
});

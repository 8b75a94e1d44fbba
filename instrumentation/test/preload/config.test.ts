import { describe, expect, it } from 'vitest';
import { readConfig } from '../../src/preload/sdk/config.js';

describe('readConfig', () => {
  it('defaults to OTLP/HTTP protobuf, the rest left to the exporter, with every instrumentation', () => {
    const { config, exporter, warnings } = readConfig({}, {});
    expect(warnings).toEqual([]);
    // No URL, headers or queue size: the exporter and the SDK read their own variables.
    expect(exporter).toEqual({
      url: undefined,
      headers: undefined,
      protocol: 'http/protobuf',
      maxQueueSize: undefined,
      scheduledDelayMillis: 1000,
    });
    expect(config).toMatchObject({
      disabled: false,
      bodyPeek: true,
      bodyPeekMaxBytes: 16_384,
      enforceMisrouted: false,
    });
    expect(config.instrumentations).toEqual({ enabled: undefined, disabled: [] });
  });

  it('reads the standard OTEL_* variables it owns, leaving the exporter its own', () => {
    const { config, exporter, warnings } = readConfig(
      {},
      {
        OTEL_SERVICE_NAME: 'checkout',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector.internal:4318/',
        OTEL_EXPORTER_OTLP_HEADERS: 'x-team=payments,x-note=a%20b',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'http,pg,undici',
        OTEL_NODE_DISABLED_INSTRUMENTATIONS: 'undici',
        OTEL_SDK_DISABLED: 'true',
        OTEL_BSP_SCHEDULE_DELAY: '200',
      },
    );
    expect(warnings).toEqual([]);
    expect(config).toMatchObject({ disabled: true, serviceName: 'checkout' });
    expect(exporter).toMatchObject({
      url: undefined,
      headers: undefined,
      protocol: 'http/json',
      scheduledDelayMillis: undefined,
    });
    // undici is both enabled and disabled: disabled wins where the instrumentations are built.
    expect(config.instrumentations).toEqual({ enabled: ['http', 'pg', 'undici'], disabled: ['undici'] });
  });

  it('passes the base endpoint when the signal-specific one is not an http(s) URL', () => {
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318/',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'b:9999',
    };
    expect(readConfig({}, env).exporter.url).toBe('http://a:4318/v1/traces');
    // Options win, as given (tracesEndpoint) or with /v1/traces appended (endpoint).
    expect(readConfig({ tracesEndpoint: 'http://c/x' }, env).exporter.url).toBe('http://c/x');
    expect(readConfig({ endpoint: 'http://d:1/' }, env).exporter.url).toBe('http://d:1/v1/traces');
  });

  it('reads the FAULTLINE_* switches, options winning over the environment', () => {
    const env = {
      FAULTLINE_BODY_PEEK: 'off',
      FAULTLINE_BODY_PEEK_MAX_BYTES: '2048',
      FAULTLINE_ENFORCE_MISROUTED: 'on',
    };
    expect(readConfig({}, env).config).toMatchObject({
      bodyPeek: false,
      bodyPeekMaxBytes: 2048,
      enforceMisrouted: true,
    });
    expect(readConfig({ enforceMisrouted: false, bodyPeek: true }, env).config).toMatchObject({
      bodyPeek: true,
      enforceMisrouted: false,
    });
  });

  it('turns each bad value into one warning naming the variable and the fix, then the default', () => {
    const { config, exporter, warnings } = readConfig(
      {},
      {
        FAULTLINE_BODY_PEEK: 'maybe',
        FAULTLINE_BODY_PEEK_MAX_BYTES: '-5',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
        OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'http,kafka',
        OTEL_TRACES_SAMPLER: 'sometimes',
      },
    );
    expect(config).toMatchObject({ bodyPeek: true, bodyPeekMaxBytes: 16_384 });
    expect(exporter).toMatchObject({ url: 'http://localhost:4318/v1/traces', protocol: 'http/protobuf' });
    expect(config.instrumentations).toEqual({ enabled: ['http'], disabled: [] });
    expect(warnings).toHaveLength(6);
    expect(warnings).toContain('FAULTLINE_BODY_PEEK="maybe" is not valid: use on or off (using on)');
    expect(warnings).toContain(
      'FAULTLINE_BODY_PEEK_MAX_BYTES="-5" is not valid: use a positive whole number (using 16384)',
    );
    expect(warnings.find((w) => w.startsWith('OTEL_EXPORTER_OTLP_ENDPOINT='))).toContain('http(s)://');
    expect(warnings.find((w) => w.startsWith('OTEL_EXPORTER_OTLP_PROTOCOL='))).toContain('http/protobuf');
    expect(warnings.find((w) => w.startsWith('OTEL_NODE_ENABLED_INSTRUMENTATIONS='))).toContain('"kafka"');
    expect(warnings.find((w) => w.startsWith('OTEL_TRACES_SAMPLER='))).toContain('parentbased_always_on');
  });

  it('never echoes header values, which may be secrets', () => {
    const { warnings } = readConfig(
      {},
      { OTEL_EXPORTER_OTLP_HEADERS: 'authorization', OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x=1,token' },
    );
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('OTEL_EXPORTER_OTLP_HEADERS');
    expect(warnings[1]).toContain('OTEL_EXPORTER_OTLP_TRACES_HEADERS');
    for (const w of warnings) expect(w).not.toMatch(/authorization|token/);
  });
});

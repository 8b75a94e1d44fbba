import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseCliArgs, resolveReceiverConfig, startCollector } from '../../src/index.js';

describe('resolveReceiverConfig', () => {
  it('defaults to 127.0.0.1:4318 with documented limits', () => {
    expect(resolveReceiverConfig({}, {})).toEqual({
      port: 4318,
      grpcPort: 4317,
      host: '127.0.0.1',
      token: undefined,
      maxBodyBytes: 16 * 1024 * 1024,
      maxDecompressedBytes: 64 * 1024 * 1024,
      maxSpansPerRequest: 10_000,
      maxAttributeValueLength: 65_536,
      maxAnyValueDepth: 32,
      maxDecodeBytes: 256 * 1024 * 1024,
    });
  });

  it('takes the gRPC port from FAULTLINE_OTLP_GRPC_PORT, ephemeral by default when the HTTP port is', () => {
    expect(resolveReceiverConfig({}, { FAULTLINE_OTLP_GRPC_PORT: '14317' }).grpcPort).toBe(14317);
    expect(resolveReceiverConfig({ port: 0 }, {}).grpcPort).toBe(0);
    expect(resolveReceiverConfig({ port: 0, grpcPort: 14317 }, {}).grpcPort).toBe(14317);
    expect(() => resolveReceiverConfig({}, { FAULTLINE_OTLP_GRPC_PORT: '70000' })).toThrow(
      /FAULTLINE_OTLP_GRPC_PORT must be an integer from 0 to 65535/,
    );
  });

  it('reads the environment', () => {
    const config = resolveReceiverConfig(
      {},
      {
        FAULTLINE_OTLP_PORT: '14318',
        FAULTLINE_INGEST_TOKEN: 'a'.repeat(32),
        FAULTLINE_MAX_SPANS_PER_REQUEST: '99',
      },
    );
    expect(config).toMatchObject({ port: 14318, token: 'a'.repeat(32), maxSpansPerRequest: 99 });
  });

  it('refuses a non-loopback address without a token, naming both fixes', () => {
    expect(() => resolveReceiverConfig({ host: '0.0.0.0' }, {})).toThrow(
      /refusing to listen on 0\.0\.0\.0 without a token.*FAULTLINE_INGEST_TOKEN.*FAULTLINE_ALLOW_INSECURE_BIND=1/,
    );
    expect(resolveReceiverConfig({ host: '0.0.0.0' }, { FAULTLINE_ALLOW_INSECURE_BIND: '1' }).host).toBe(
      '0.0.0.0',
    );
    expect(resolveReceiverConfig({ host: '0.0.0.0', token: 'b'.repeat(20) }, {}).token).toBe('b'.repeat(20));
    expect(resolveReceiverConfig({ host: '::1' }, {}).host).toBe('::1');
  });

  it.each([
    [{ FAULTLINE_OTLP_PORT: 'http' }, /FAULTLINE_OTLP_PORT must be a whole number, got "http"/],
    [{ FAULTLINE_OTLP_PORT: '70000' }, /FAULTLINE_OTLP_PORT must be an integer from 0 to 65535, got 70000/],
    [{ FAULTLINE_INGEST_TOKEN: 'short' }, /at least 16 characters/],
    [
      { FAULTLINE_MAX_BODY_BYTES: '100', FAULTLINE_MAX_DECOMPRESSED_BYTES: '50' },
      /at least FAULTLINE_MAX_BODY_BYTES/,
    ],
  ])('rejects %j', (env, message) => {
    expect(() => resolveReceiverConfig({}, env)).toThrow(message);
  });

  it('startCollector refuses an insecure bind before listening', async () => {
    await expect(startCollector({ host: '0.0.0.0', port: 0, writer: undefined })).rejects.toBeInstanceOf(
      ConfigError,
    );
  });
});

describe('faultline-collector flags', () => {
  it('parses flags into options and reads the token from a file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'faultline-h4b-cli-'));
    writeFileSync(join(dir, 'token'), `${'t'.repeat(24)}\n`);
    expect(
      parseCliArgs([
        '--port',
        '0',
        '--host',
        '::1',
        '--token-file',
        join(dir, 'token'),
        '--data-dir',
        dir,
        '--max-spans-per-request',
        '5',
        '--spool-dir',
        join(dir, 'log'),
      ]),
    ).toEqual({
      help: false,
      receiver: { port: 0, host: '::1', token: 't'.repeat(24), maxSpansPerRequest: 5 },
      store: { dataDir: dir },
      writer: { spoolDir: join(dir, 'log') },
    });
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    [['--prot', '1'], /Unknown option '--prot'.*--help/],
    [['--spool-dir', ' '], /--spool-dir must be a directory path/],
    [['--port', 'x'], /--port must be a whole number, got "x"/],
    [['--token-file', '/nonexistent/token'], /--token-file \/nonexistent\/token cannot be read/],
  ])('rejects %j', (argv, message) => {
    expect(() => parseCliArgs(argv)).toThrow(message);
  });

  it('prints --help and exits 2 on a bad flag (the real entry point)', () => {
    const cli = join(import.meta.dirname, 'helpers', 'cli-from-source.ts');
    const help = spawnSync(process.execPath, ['--import', 'tsx', cli, '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: faultline-collector \[options\]/);
    expect(help.stdout).toContain('--max-attribute-value-length');
    const bad = spawnSync(process.execPath, ['--import', 'tsx', cli, '--nope'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/faultline-collector: Unknown option '--nope'/);
    const dir = mkdtempSync(join(tmpdir(), 'faultline-h4b-cli-'));
    const open = spawnSync(
      process.execPath,
      ['--import', 'tsx', cli, '--host', '0.0.0.0', '--data-dir', join(dir, 'data')],
      {
        encoding: 'utf8',
        env: { ...process.env, FAULTLINE_INGEST_TOKEN: '', FAULTLINE_ALLOW_INSECURE_BIND: '' },
      },
    );
    expect(open.status).toBe(1);
    expect(open.stderr).toMatch(/refusing to listen on 0\.0\.0\.0 without a token/);
    expect(existsSync(join(dir, 'data')), 'the store must not be opened').toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });
});

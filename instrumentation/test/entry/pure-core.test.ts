import { execFileSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The main entry is the pure core the collector imports: loading it must not load OpenTelemetry
 * (DESIGN "Dependency rules"). Checked on the built package, as users and the collector load it,
 * in a fresh process each time so nothing else has loaded a module already.
 */
const pkgDir = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Every module URL/path a child process resolved while importing `specifier`. */
function loadedModules(kind: 'esm' | 'cjs', specifier: string): string[] {
  const script =
    kind === 'cjs'
      ? `require(${JSON.stringify(specifier)}); console.log(JSON.stringify(Object.keys(require.cache)));`
      : // A loader hook sees every ESM resolution, including CJS packages an ESM file imports.
        `import { register } from 'node:module';
const seen = [];
const { port1, port2 } = new MessageChannel();
port1.on('message', (m) => seen.push(m)); port1.unref();
register('data:text/javascript,' + encodeURIComponent(\`
let port; export function initialize(d) { port = d.port; }
export async function resolve(s, c, next) { const r = await next(s, c); port.postMessage(r.url); return r; }\`),
  { parentURL: import.meta.url, data: { port: port2 }, transferList: [port2] });
await import(${JSON.stringify(specifier)});
await new Promise((r) => setTimeout(r, 50));
const { createRequire } = await import('node:module');
console.log(JSON.stringify([...seen, ...Object.keys(createRequire(import.meta.url).cache)]));`;
  const args = kind === 'cjs' ? ['-e', script] : ['--input-type=module', '-e', script];
  return JSON.parse(execFileSync(process.execPath, args, { cwd: pkgDir, encoding: 'utf8' })) as string[];
}

const OTEL = /[\\/]@opentelemetry[\\/]/;

describe('main entry: the pure core', () => {
  it('import loads no @opentelemetry module', () => {
    const mods = loadedModules('esm', '@faultline/instrumentation');
    expect(mods.some((m) => m.includes('/dist/index.js'))).toBe(true);
    expect(mods.filter((m) => OTEL.test(m))).toEqual([]);
  });

  it('require loads no @opentelemetry module', () => {
    const mods = loadedModules('cjs', '@faultline/instrumentation');
    expect(mods.some((m) => m.endsWith('index.cjs'))).toBe(true);
    expect(mods.filter((m) => OTEL.test(m))).toEqual([]);
  });

  it('does not export start/shutdown (they live in /start)', async () => {
    const core = await import('@faultline/instrumentation');
    expect('start' in core).toBe(false);
    expect('shutdown' in core).toBe(false);
  });
});

describe('/start entry', () => {
  it('exports start and shutdown, ESM and CJS', async () => {
    const esm = await import('@faultline/instrumentation/start');
    expect(typeof esm.start).toBe('function');
    expect(typeof esm.shutdown).toBe('function');
    const out = execFileSync(
      process.execPath,
      [
        '-e',
        "const m = require('@faultline/instrumentation/start'); console.log(typeof m.start, typeof m.shutdown)",
      ],
      { cwd: pkgDir, encoding: 'utf8' },
    );
    expect(out.trim()).toBe('function function');
  });

  it('loads OpenTelemetry (the reason it is not the main entry)', () => {
    // Also shows that both probes above would see an @opentelemetry module if one loaded.
    expect(loadedModules('cjs', '@faultline/instrumentation/start').some((m) => OTEL.test(m))).toBe(true);
    expect(loadedModules('esm', '@faultline/instrumentation/start').some((m) => OTEL.test(m))).toBe(true);
  });
});

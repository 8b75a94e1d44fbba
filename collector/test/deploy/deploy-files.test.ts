import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// No Docker engine runs here, so the deployment files are checked against the code instead: what
// each service sets must be something its program reads, every image is pinned, every file a
// service mounts exists, and the roles, ports and health checks agree with what the code serves.
const ROOT = resolve(import.meta.dirname, '../../..');
const read = (p: string) => readFileSync(join(ROOT, p), 'utf8');
const ROLES = ['collector', 'dashboard', 'alerts'];

type Service = {
  image?: string;
  build?: unknown;
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string | number>;
  ports?: string[];
  expose?: string[];
  volumes?: string[];
  healthcheck?: { test?: string[]; disable?: boolean };
  deploy?: { replicas?: number };
  depends_on?: Record<string, { condition: string }>;
  profiles?: string[];
};
type Compose = { services: Record<string, Service>; volumes?: Record<string, unknown> };
const COMPOSE_FILES = ['docker-compose.yml', 'docker-compose.cluster.yml'];
const compose = (file: string) => parse(read(file), { merge: true }) as Compose;

/** Every FAULTLINE_* name our own code reads (source, scripts, the CLI, the preload, deploy scripts). */
function faultlineNamesRead(): Set<string> {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (name === 'node_modules' || name === 'dist' || name === '.next' || name === 'test') continue;
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(ts|tsx|mjs|js|sh)$/.test(name))
        // Read, not mentioned: env.X, env['X'], a quoted name passed to a reader, or $X / ${X} in a script.
        for (const m of readFileSync(p, 'utf8').matchAll(
          /(?:\benv\.|\benv\[['"]|['"]|\$\{?)(FAULTLINE_[A-Z0-9_]+)\b/g,
        ))
          names.add(m[1]!);
    }
  };
  for (const d of [
    'collector/src',
    'sql/src',
    'dashboard/src',
    'dashboard/app',
    'instrumentation/src',
    'scripts',
    'bin',
    'deploy',
  ])
    walk(join(ROOT, d));
  return names;
}
const FAULTLINE_READ = faultlineNamesRead();

/** Names a config file reads from the environment: ClickHouse's from_env, the Collector's ${env:…}. */
const fromEnv = (file: string) =>
  new Set(
    [...read(file).matchAll(/from_env="([A-Z0-9_]+)"|\$\{env:([A-Z0-9_]+)\}/g)].map((m) => m[1] ?? m[2]),
  );

// The clickhouse/clickhouse-server image's entrypoint reads these (hub.docker.com/r/clickhouse/clickhouse-server).
const CLICKHOUSE_IMAGE_ENV = [
  'CLICKHOUSE_DB',
  'CLICKHOUSE_USER',
  'CLICKHOUSE_PASSWORD',
  'CLICKHOUSE_DEFAULT_ACCESS_MANAGEMENT',
];

/** Whether an installed OpenTelemetry JS package reads this OTEL_* name (the preload's SDK). */
function otelReads(name: string): boolean {
  const r = spawnSync(
    'grep',
    ['-rlF', '--include=*.js', '-m1', `'${name}'`, join(ROOT, 'node_modules/@opentelemetry')],
    {
      encoding: 'utf8',
    },
  );
  return r.stdout.trim() !== '';
}

function envReadBy(service: string, s: Service): (name: string) => boolean {
  if (s.image?.startsWith('clickhouse/clickhouse-server'))
    return (n) =>
      CLICKHOUSE_IMAGE_ENV.includes(n) ||
      fromEnv('deploy/clickhouse-cluster/cluster.xml').has(n) ||
      FAULTLINE_READ.has(n);
  if (s.image?.startsWith('clickhouse/clickhouse-keeper'))
    return (n) => fromEnv('deploy/clickhouse-cluster/keeper.xml').has(n);
  if (s.image?.startsWith('otel/opentelemetry-collector'))
    return (n) => fromEnv('deploy/otelcol.yaml').has(n);
  // nginx gets no environment: its config file is mounted.
  if (s.image?.startsWith('nginx:')) return () => false;
  if (s.build || s.image?.startsWith('faultline:'))
    return (n) => (n.startsWith('OTEL_') ? otelReads(n) : FAULTLINE_READ.has(n));
  throw new Error(`${service}: no rule for which environment ${s.image} reads`);
}

describe.each(COMPOSE_FILES)('%s', (file) => {
  const c = compose(file);
  const services = Object.entries(c.services);

  it('pins every image to a full version, and builds Faultline from the Dockerfile', () => {
    for (const [name, s] of services) {
      expect(s.image, name).toMatch(/^[\w./-]+:\d+\.\d+\.\d+[\w.-]*$/);
      if (s.image!.startsWith('faultline:'))
        expect(s.build, name).toEqual({ context: '.', dockerfile: 'Dockerfile' });
    }
  });

  it('sets only environment its program reads', () => {
    for (const [name, s] of services) {
      const reads = envReadBy(name, s);
      for (const key of Object.keys(s.environment ?? {}))
        expect(reads(key), `${name}: ${key} is read by nothing`).toBe(true);
    }
  });

  it('runs every Faultline role, each as --role and FAULTLINE_ROLE alike, with one alerts role', () => {
    const roles = services
      .filter(([, s]) => s.command?.[0] === 'start')
      .map(([name, s]) => {
        const role = s.command![s.command!.indexOf('--role') + 1]!;
        expect(ROLES, name).toContain(role);
        expect(s.environment?.FAULTLINE_ROLE, name).toBe(role);
        return { role, replicas: s.deploy?.replicas ?? 1 };
      });
    expect(roles.map((r) => r.role).sort()).toEqual(['alerts', 'collector', 'dashboard']);
    expect(roles.find((r) => r.role === 'alerts')!.replicas).toBe(1);
    expect(roles.find((r) => r.role === 'collector')!.replicas).toBeGreaterThan(1);
    // The schema is migrated once, before any role starts.
    expect(c.services.migrate?.command).toEqual(['migrate', '--apply']);
    for (const [name, s] of services.filter(([, s]) => s.command?.[0] === 'start'))
      expect(s.depends_on?.migrate, name).toEqual({ condition: 'service_completed_successfully' });
  });

  it('publishes only the collectors’ one address and the dashboard, on the ports the code serves', () => {
    const published = services.flatMap(([name, s]) => (s.ports ?? []).map((p) => `${name} ${p}`));
    expect(published.filter((p) => !p.startsWith('otelcol ')).sort()).toEqual([
      'dashboard 3000:3000',
      'lb 4317:4317',
      'lb 4318:4318',
    ]);
    expect(c.services.collector!.expose).toEqual(['4317', '4318']);
    expect(read('deploy/nginx/collectors.conf')).toMatch(
      /server collector:4317 resolve;[\s\S]*server collector:4318 resolve;/,
    );
  });

  it('checks the health of every long-running service, and mounts only files that exist', () => {
    for (const [name, s] of services) {
      if (s.image?.startsWith('faultline:')) continue; // the image's HEALTHCHECK (scripts/healthcheck.mjs)
      if (s.image?.startsWith('nginx:') || s.image?.startsWith('otel/')) continue;
      expect(s.healthcheck?.test, name).toBeDefined();
    }
    for (const [name, s] of services)
      for (const v of s.volumes ?? []) {
        const [source] = v.split(':');
        if (source!.startsWith('.')) expect(existsSync(join(ROOT, source!)), `${name}: ${source}`).toBe(true);
        else expect(Object.keys(c.volumes ?? {}), `${name}: volume ${source}`).toContain(source);
      }
    // Collectors share one volume, each with its own write-ahead log (a directory is locked by one process).
    expect(c.services.collector!.environment!.FAULTLINE_SPOOL_DIR).toBe('/data/wal/{hostname}');
    // Behind one address a retry may land on another collector: stored once (test/server-mode/two-collectors).
    expect(c.services.collector!.environment!.FAULTLINE_INSERT_DEDUP).toBe('request');
    expect(c.services.clickhouse?.volumes ?? c.services['ch-s1r1']!.volumes).toContainEqual(
      './deploy/clickhouse/initdb:/docker-entrypoint-initdb.d:ro',
    );
  });

  it('gives the dashboard and its SQL console the read-only ClickHouse user', () => {
    const env = c.services.dashboard!.environment!;
    expect(env.FAULTLINE_CLICKHOUSE_USER).toBe('faultline_reader');
    expect(env.FAULTLINE_CLICKHOUSE_CONSOLE_USER).toBe('faultline_reader');
    expect(env.FAULTLINE_DASHBOARD_TOKEN).toMatch(/^\$\{FAULTLINE_DASHBOARD_TOKEN:\?/);
  });
});

describe('docker-compose.cluster.yml', () => {
  const c = compose('docker-compose.cluster.yml');
  it('is two shards of two replicas with three Keeper nodes, and names the cluster the code renders', () => {
    const nodes = Object.entries(c.services).filter(([, s]) =>
      s.image?.startsWith('clickhouse/clickhouse-server'),
    );
    expect(nodes.map(([, s]) => `${s.environment!.CH_SHARD}/${s.environment!.CH_REPLICA}`)).toEqual([
      '01/ch-s1r1',
      '01/ch-s1r2',
      '02/ch-s2r1',
      '02/ch-s2r2',
    ]);
    const xml = read('deploy/clickhouse-cluster/cluster.xml');
    const shards = [...xml.matchAll(/<shard>([\s\S]*?)<\/shard>/g)].map((m) =>
      [...m[1]!.matchAll(/<host>([\w-]+)<\/host>/g)].map((h) => h[1]),
    );
    expect(shards).toEqual([
      ['ch-s1r1', 'ch-s1r2'],
      ['ch-s2r1', 'ch-s2r2'],
    ]);
    expect(Object.keys(c.services).filter((n) => n.startsWith('keeper'))).toEqual([
      'keeper1',
      'keeper2',
      'keeper3',
    ]);
    expect(xml).toContain('<faultline>');
    for (const role of ['collector', 'dashboard', 'alerts'])
      expect(c.services[role]!.environment!.FAULTLINE_CLICKHOUSE_CLUSTER, role).toBe('faultline');
    expect(read('deploy/nginx/clickhouse-cluster.conf').match(/server (ch-s\dr\d):8123;/g)).toHaveLength(4);
  });
});

describe('Dockerfile', () => {
  const text = read('Dockerfile');
  const lines = text.split('\n');
  const froms = lines.filter((l) => l.startsWith('FROM '));
  const finalStage = text.slice(text.lastIndexOf('\nFROM '));

  it('builds in one stage and runs in a slim one, pinned, as a non-root user', () => {
    expect(froms).toHaveLength(2);
    for (const f of froms) expect(f).toMatch(/^FROM node:\d+\.\d+\.\d+-bookworm-slim AS \w+$/);
    expect(text).toMatch(/npm prune --omit=dev/);
    expect(finalStage).toMatch(/\nUSER node\n/);
    expect(finalStage).not.toMatch(/npm (ci|install)/);
  });

  it('checks health on /healthz and takes the role from the CLI or FAULTLINE_ROLE', () => {
    expect(finalStage).toContain('HEALTHCHECK');
    expect(finalStage).toContain('CMD ["node", "scripts/healthcheck.mjs"]');
    expect(read('scripts/healthcheck.mjs')).toContain('/healthz');
    expect(finalStage).toContain('ENTRYPOINT ["node", "bin/faultline.mjs"]');
    expect(finalStage).toMatch(/FAULTLINE_ROLE=all/);
  });

  it('copies into the runtime stage only what exists after the build', () => {
    const built = ['instrumentation/dist', 'collector/dist', 'dashboard/.next', 'node_modules'];
    for (const m of finalStage.matchAll(/^COPY --from=build \S+ (.+) \S+$/gm))
      for (const src of m[1]!.split(' ')) {
        const path = relative('/app', src);
        if (built.includes(path)) continue;
        expect(existsSync(join(ROOT, path)), path).toBe(true);
      }
  });
});

describe('scripts/healthcheck.mjs (the image’s HEALTHCHECK)', () => {
  // Asynchronous: the server answering the probe runs in this process.
  const run = (env: Record<string, string>) =>
    new Promise<{ status: number | null; stderr: string }>((ok) => {
      execFile(
        process.execPath,
        [join(ROOT, 'scripts/healthcheck.mjs')],
        { env: { PATH: process.env.PATH!, ...env } },
        (err, _stdout, stderr) => ok({ status: err ? ((err as { code?: number }).code ?? 1) : 0, stderr }),
      );
    });

  it('is healthy when the role answers 200 on /healthz, and says which role failed otherwise', async () => {
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => res.writeHead(req.url === '/healthz' ? 200 : 404).end('{}'));
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const port = String((server.address() as { port: number }).port);
    try {
      expect((await run({ FAULTLINE_ROLE: 'alerts', FAULTLINE_ALERTS_PORT: port })).status).toBe(0);
      const down = await run({ FAULTLINE_ROLE: 'collector', FAULTLINE_OTLP_PORT: '1' });
      expect(down.status).toBe(1);
      expect(down.stderr).toMatch(/^collector: \/healthz on port 1 did not answer/);
    } finally {
      server.close();
    }
  });
});

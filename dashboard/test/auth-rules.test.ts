import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createLoginThrottle,
  createSessionStore,
  crossOriginProblem,
  describeAuth,
  hashPassword,
  isAllowedHost,
  isTrustedAddress,
  parseAllowedHosts,
  parseHostHeader,
  parsePasswordHash,
  parseTrustedProxies,
  resolveAuthConfig,
  safeNextPath,
  verifyPassword,
} from '../src/server/auth/index.mjs';

// The gate's rules one by one; auth-gate.e2e.test.ts drives them through the real server.

const dir = mkdtempSync(join(tmpdir(), 'faultline-auth-rules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const TOKEN = 'dashboard-token-0123456789abcdef';

describe('resolveAuthConfig', () => {
  it('leaves a loopback dashboard open and refuses any other address without an auth mode', () => {
    for (const bindHost of ['127.0.0.1', '::1', 'localhost']) {
      expect(resolveAuthConfig({}, { bindHost })).toMatchObject({ loopback: true, login: null, proxy: null });
    }
    for (const bindHost of ['0.0.0.0', '::', '192.0.2.2']) {
      expect(() => resolveAuthConfig({}, { bindHost })).toThrow(
        /refusing to serve the dashboard on .* without authentication.*FAULTLINE_DASHBOARD_TOKEN.*FAULTLINE_DASHBOARD_USERS_FILE.*FAULTLINE_DASHBOARD_TRUSTED_PROXIES/,
      );
    }
  });

  it('refuses bad values with the variable to fix, never quoting a secret', () => {
    const bad: [Record<string, string>, RegExp][] = [
      [{ FAULTLINE_DASHBOARD_TOKEN: 'short-secret' }, /FAULTLINE_DASHBOARD_TOKEN must be at least 16/],
      [{ FAULTLINE_DASHBOARD_TOKEN: 'has whitespace in the middle' }, /no whitespace/],
      [
        { FAULTLINE_DASHBOARD_TOKEN: TOKEN, FAULTLINE_INGEST_TOKEN: TOKEN },
        /must differ from FAULTLINE_INGEST_TOKEN/,
      ],
      [{ FAULTLINE_DASHBOARD_TOKEN: TOKEN, FAULTLINE_DASHBOARD_USERS_FILE: '/x' }, /not both/],
      [{ FAULTLINE_DASHBOARD_USERS_FILE: join(dir, 'missing') }, /cannot be read \(ENOENT\)/],
      [
        { FAULTLINE_DASHBOARD_TRUSTED_PROXIES: 'proxy.internal' },
        /"proxy.internal" is not an IP address or CIDR/,
      ],
      [{ FAULTLINE_DASHBOARD_TRUSTED_PROXIES: '10.0.0.0/33' }, /not an IP address or CIDR/],
      [{ FAULTLINE_DASHBOARD_ALLOWED_HOSTS: 'https://dash.example' }, /not a host name/],
      [{ FAULTLINE_DASHBOARD_ALLOWED_HOSTS: '*.example.com' }, /no wildcards/],
      [
        { FAULTLINE_DASHBOARD_PUBLIC_URL: 'https://dash.example/faultline' },
        /PUBLIC_URL is not the dashboard's public origin/,
      ],
      [{ FAULTLINE_DASHBOARD_PUBLIC_URL: 'https://admin:hunter2@dash.example' }, /no user/],
      [{ FAULTLINE_DASHBOARD_SESSION_HOURS: '0' }, /SESSION_HOURS must be a whole number from 1 to 720/],
    ];
    for (const [env, message] of bad) {
      let thrown: Error | undefined;
      try {
        resolveAuthConfig(env, { bindHost: '127.0.0.1' });
      } catch (err) {
        thrown = err as Error;
      }
      expect(thrown?.message, JSON.stringify(env)).toMatch(message);
      expect(thrown?.message).not.toContain('short-secret');
      expect(thrown?.message).not.toContain('hunter2');
      expect(thrown?.message).not.toContain(TOKEN);
    }
  });

  it('reads each mode, the public URL and the allowed hosts; the start line names no secret', () => {
    const config = resolveAuthConfig(
      {
        FAULTLINE_DASHBOARD_TOKEN: TOKEN,
        FAULTLINE_DASHBOARD_TRUSTED_PROXIES: '10.0.0.0/8, fd00::1',
        FAULTLINE_DASHBOARD_PUBLIC_URL: 'https://Faultline.Example.com',
        FAULTLINE_DASHBOARD_ALLOWED_HOSTS: 'dash.internal:8443 other.internal',
      },
      { bindHost: '0.0.0.0' },
    );
    expect(config).toMatchObject({
      loopback: false,
      login: { kind: 'token' },
      publicOrigin: 'https://faultline.example.com',
      secureCookies: true,
      sessionTtlMs: 12 * 3_600_000,
      allowedHosts: [
        { hostname: 'dash.internal', port: 8443 },
        { hostname: 'other.internal', port: null },
        { hostname: 'faultline.example.com', port: null },
      ],
    });
    const line = describeAuth(config);
    expect(line).toMatch(
      /^token .* \+ X-Forwarded-User from 10\.0\.0\.0\/8, fd00::1; hosts localhost, IP addresses, /,
    );
    expect(line).not.toContain(TOKEN);
  });
});

describe('Host (DNS rebinding)', () => {
  const allowed = parseAllowedHosts('dash.example.com internal:8443');
  const ok = (h: string | undefined) => isAllowedHost(parseHostHeader(h), allowed);

  it('answers loopback names, IP literals and the configured names only', () => {
    for (const h of [
      '127.0.0.1:3000',
      'localhost:3000',
      'LOCALHOST.',
      '[::1]:3000',
      '192.0.2.2:3000',
      '[fd00::2]',
    ]) {
      expect(ok(h), h).toBe(true);
    }
    expect(ok('dash.example.com')).toBe(true);
    expect(ok('Dash.Example.Com:443')).toBe(true);
    expect(ok('internal:8443')).toBe(true);
    expect(ok('internal:3000')).toBe(false);
    for (const h of [
      'evil.example:3000',
      'dash.example.com.evil.example',
      'localhost.evil.example',
      'a.localhost',
    ]) {
      expect(ok(h), h).toBe(false);
    }
    for (const h of [undefined, '', 'a b', 'x:99999', '[not-v6]:1', 'user@localhost', 'localhost:3000/x']) {
      expect(ok(h), String(h)).toBe(false);
    }
  });
});

describe('cross-origin rule', () => {
  const host = parseHostHeader('127.0.0.1:3000')!;
  const post = (
    headers: Record<string, string>,
    extra: Partial<{ headerAuthenticated: boolean; acceptsForm: boolean }> = {},
  ) =>
    crossOriginProblem(headers, {
      unsafe: true,
      host,
      publicOrigin: 'https://faultline.example.com',
      headerAuthenticated: false,
      acceptsForm: false,
      ...extra,
    });
  const json = { 'content-type': 'application/json' };

  it('lets a same-origin JSON POST through', () => {
    expect(post({ ...json, origin: 'http://127.0.0.1:3000', 'sec-fetch-site': 'same-origin' })).toBeNull();
    expect(
      post({ 'content-type': 'application/json; charset=utf-8', origin: 'https://faultline.example.com' }),
    ).toBeNull();
    // A TLS proxy that passes Host through: one port cannot serve both schemes, so https on the
    // very host:port the request named is this dashboard too.
    expect(post({ ...json, origin: 'https://127.0.0.1:3000' })).toBeNull();
  });

  it('refuses other origins, cross-site fetch metadata and a missing Origin without a token', () => {
    for (const origin of [
      'http://evil.example',
      'http://127.0.0.1:3001',
      'https://127.0.0.1',
      'null',
      'http://localhost:3000',
    ]) {
      expect(post({ ...json, origin }), origin).toMatchObject({ status: 403 });
    }
    expect(post({ ...json, origin: 'http://127.0.0.1:3000', 'sec-fetch-site': 'cross-site' })).toMatchObject({
      status: 403,
    });
    expect(post({ ...json, 'sec-fetch-site': 'same-site' })).toMatchObject({ status: 403 });
    expect(post(json)).toMatchObject({ status: 403, message: expect.stringMatching(/without an Origin/) });
    expect(post(json, { headerAuthenticated: true })).toBeNull();
  });

  it('takes only application/json bodies, form-encoded on the sign-in routes only', () => {
    const origin = 'http://127.0.0.1:3000';
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      expect(post({ origin, 'content-type': type }), type).toMatchObject({ status: 415 });
    }
    expect(post({ origin })).toMatchObject({ status: 415 });
    expect(
      post({ origin, 'content-type': 'application/x-www-form-urlencoded' }, { acceptsForm: true }),
    ).toBeNull();
    expect(post({ origin, 'content-type': 'text/plain' }, { acceptsForm: true })).toMatchObject({
      status: 415,
    });
  });

  it('on a GET of /api/*: refuses a foreign Origin, allows none', () => {
    const get = (headers: Record<string, string>) =>
      crossOriginProblem(headers, {
        unsafe: false,
        host,
        publicOrigin: null,
        headerAuthenticated: false,
        acceptsForm: false,
      });
    expect(get({})).toBeNull();
    expect(get({ origin: 'http://evil.example' })).toMatchObject({ status: 403 });
    expect(get({ 'sec-fetch-site': 'cross-site' })).toMatchObject({ status: 403 });
  });
});

describe('trusted proxies', () => {
  const proxies = parseTrustedProxies('10.1.0.0/16 192.0.2.7 fd00::/64');
  it('matches the TCP peer against addresses and CIDRs, IPv4-mapped spellings included', () => {
    expect(isTrustedAddress(proxies, '10.1.255.3')).toBe(true);
    expect(isTrustedAddress(proxies, '::ffff:10.1.0.9')).toBe(true);
    expect(isTrustedAddress(proxies, '192.0.2.7')).toBe(true);
    expect(isTrustedAddress(proxies, 'fd00::2')).toBe(true);
    expect(isTrustedAddress(proxies, '10.2.0.1')).toBe(false);
    expect(isTrustedAddress(proxies, '192.0.2.8')).toBe(false);
    expect(isTrustedAddress(proxies, '127.0.0.1')).toBe(false);
    expect(isTrustedAddress(proxies, undefined)).toBe(false);
  });
});

describe('passwords (users file)', () => {
  it('hashes with scrypt, verifies in constant time, refuses malformed lines naming file and line', async () => {
    const hash = await hashPassword('correct horse battery staple');
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    const parsed = parsePasswordHash(hash);
    const t0 = performance.now();
    expect(await verifyPassword('correct horse battery staple', parsed)).toBe(true);
    const verifyMs = performance.now() - t0;
    expect(await verifyPassword('correct horse battery stapler', parsed)).toBe(false);
    console.log(`scrypt N=2^15 r=8 p=1 verify: ${verifyMs.toFixed(0)} ms`);

    const file = join(dir, 'users');
    writeFileSync(file, `# operators\nalice:${hash}\n\nbob:scrypt$16$8$1$x$y\n`);
    expect(() =>
      resolveAuthConfig({ FAULTLINE_DASHBOARD_USERS_FILE: file }, { bindHost: '0.0.0.0' }),
    ).toThrow(/users:4: the hash for bob N must be a power of two/);
    writeFileSync(file, `alice:${hash}\n`);
    const config = resolveAuthConfig({ FAULTLINE_DASHBOARD_USERS_FILE: file }, { bindHost: '0.0.0.0' });
    expect(config.login).toMatchObject({ kind: 'users' });
    expect(describeAuth(config)).not.toContain(hash);
  });
});

describe('sessions, throttle, redirects', () => {
  it('sessions expire and revoke', () => {
    let t = 0;
    const sessions = createSessionStore({ ttlMs: 1000, maxSessions: 2, now: () => t });
    const a = sessions.create('alice');
    expect(sessions.lookup(a.id)?.user).toBe('alice');
    expect(sessions.lookup(`${a.id}x`)).toBeUndefined();
    t = 1000;
    expect(sessions.lookup(a.id)).toBeUndefined();
    const b = sessions.create('bob');
    sessions.create('carol');
    sessions.create('dave'); // over the bound: the oldest goes
    expect(sessions.lookup(b.id)).toBeUndefined();
    expect(sessions.size).toBe(2);
  });

  it('throttles an address after repeated failures until the window ends', () => {
    let t = 0;
    const throttle = createLoginThrottle({ maxFailures: 3, windowMs: 60_000, now: () => t });
    for (let i = 0; i < 3; i++) throttle.failed('192.0.2.9');
    expect(throttle.retryAfterS('192.0.2.9')).toBe(60);
    expect(throttle.retryAfterS('192.0.2.10')).toBe(0);
    t = 60_000;
    expect(throttle.retryAfterS('192.0.2.9')).toBe(0);
  });

  it('sends people back to local paths only (no open redirect)', () => {
    expect(safeNextPath('/sql?name=x')).toBe('/sql?name=x');
    for (const bad of [
      '//evil.example',
      '/\\evil.example',
      'https://evil.example',
      '/login',
      '/logout?x',
      undefined,
      7,
    ]) {
      expect(safeNextPath(bad), String(bad)).toBe('/');
    }
  });
});

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/server/auth/index.mjs';
import { launchChromium } from './support/browser';
import { type FaultlineProcess, ROOT, startFaultline } from './support/faultline-process';

// The request gate of scripts/start.mjs against the real server: Host, Origin and body-type
// checks on loopback (the open developer default), then the two auth modes bound beyond loopback
// (0.0.0.0). The trusted-proxy rule reads the TCP peer, so the proxy-mode tests connect twice: from
// 127.0.0.1 (the configured proxy) and from this machine's own non-loopback address (elsewhere).

const TOKEN = 'e2e-dashboard-token-0123456789abcdef';
const SELECT_ONE = JSON.stringify({ sql: 'SELECT 1 AS one' });

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request over a fresh connection, headers exactly as given (Host included), no redirects followed. */
function send(
  url: string,
  {
    method = 'GET',
    headers = {},
    body,
    localAddress,
  }: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    localAddress?: string;
  } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, agent: false, localAddress }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => {
        text += c;
      });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** This machine's first non-loopback IPv4 address: a client "elsewhere" that is still only us. */
function ownAddress(): string {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  throw new Error('no non-loopback IPv4 address on this machine: the trusted-proxy test needs one');
}

/** start.mjs binds 0.0.0.0 and prints that; tests reach it through loopback. */
const viaLoopback = (app: FaultlineProcess) => app.dashboardUrl.replace('://0.0.0.0:', '://127.0.0.1:');

function sessionFrom(reply: Reply): string {
  const cookie = String(reply.headers['set-cookie']?.[0] ?? '');
  const m = /^faultline_session=([^;]+)/.exec(cookie);
  if (!m) throw new Error(`no session cookie in ${JSON.stringify(reply.headers)}`);
  return `faultline_session=${m[1]}`;
}

describe('start beyond loopback', () => {
  function start(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn(
        process.execPath,
        ['scripts/start.mjs', '--host', '0.0.0.0', '--port', '0', '--otlp-port', '0'],
        {
          cwd: ROOT,
          env: { ...process.env, FAULTLINE_DATA_DIR: join(tmpdir(), 'faultline-never-opened'), ...env },
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      let stderr = '';
      child.stderr.on('data', (d) => {
        stderr += String(d);
      });
      child.on('exit', (code) => resolve({ code, stderr }));
    });
  }

  it('refuses to start without an auth mode, saying how to set one', async () => {
    const { code, stderr } = await start({});
    expect(code).toBe(2);
    expect(stderr).toMatch(/refusing to serve the dashboard on 0\.0\.0\.0 without authentication/);
    expect(stderr).toMatch(
      /FAULTLINE_DASHBOARD_TOKEN .*FAULTLINE_DASHBOARD_USERS_FILE .*FAULTLINE_DASHBOARD_TRUSTED_PROXIES/,
    );
  });

  it('refuses a bad auth value with the variable, not the secret', async () => {
    const { code, stderr } = await start({ FAULTLINE_DASHBOARD_TOKEN: 'tooshort' });
    expect(code).toBe(2);
    expect(stderr).toMatch(/FAULTLINE_DASHBOARD_TOKEN must be at least 16 characters/);
    expect(stderr).not.toContain('tooshort');
  });
});

describe('on loopback without auth (the developer default)', () => {
  let app: FaultlineProcess;
  let base: string;
  let host: string;
  beforeAll(async () => {
    app = await startFaultline();
    base = app.dashboardUrl;
    host = new URL(base).host;
  });
  afterAll(() => app?.stop());

  const console = (headers: Record<string, string>, body = SELECT_ONE) =>
    send(`${base}/api/sql`, { method: 'POST', headers, body });

  it('runs a same-origin JSON POST', async () => {
    const res = await console({
      'content-type': 'application/json',
      origin: base,
      'sec-fetch-site': 'same-origin',
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).rows).toEqual([{ one: 1 }]);
  });

  it('refuses a cross-origin POST, a text/plain POST and a POST without Origin', async () => {
    const evil = await console({ 'content-type': 'application/json', origin: 'http://evil.example' });
    expect(evil.status).toBe(403);
    expect(JSON.parse(evil.body).error).toMatch(/cross-origin/);
    // What a page elsewhere can send without a preflight: a text/plain body, and fetch metadata
    // saying so. Each check refuses it alone.
    expect((await console({ 'content-type': 'text/plain', origin: base })).status).toBe(415);
    expect(
      (await console({ 'content-type': 'text/plain;charset=UTF-8', origin: 'http://evil.example' })).status,
    ).toBe(403);
    expect(
      (await console({ 'content-type': 'application/json', origin: base, 'sec-fetch-site': 'cross-site' }))
        .status,
    ).toBe(403);
    const bare = await console({ 'content-type': 'application/json' });
    expect(bare.status).toBe(403);
    expect(JSON.parse(bare.body).error).toMatch(/without an Origin header/);
  });

  it('refuses a rebound Host on pages, static files and the console, even with a matching Origin', async () => {
    const port = new URL(base).port;
    const rebound = `evil.example:${port}`;
    const page = await send(`${base}/`, { headers: { host: rebound } });
    expect(page.status).toBe(403);
    expect(page.body).toMatch(/DNS-rebinding/);
    expect((await send(`${base}/_next/static/nothing.js`, { headers: { host: rebound } })).status).toBe(403);
    // After rebinding, the attacker's page is "same-origin" with itself: Origin equals Host.
    const sql = await console({
      host: rebound,
      origin: `http://${rebound}`,
      'content-type': 'application/json',
    });
    expect(sql.status).toBe(403);
    expect((await send(`${base}/`, { headers: { host } })).status).toBe(200);
    expect((await send(`${base}/`, { headers: { host: `localhost:${port}` } })).status).toBe(200);
  });

  it('passes pages with anti-framing and referrer headers', async () => {
    const res = await send(`${base}/sql`);
    expect(res.status).toBe(200);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['content-security-policy']).toBe("frame-ancestors 'none'");
    expect(res.headers['referrer-policy']).toBe('same-origin');
  });
});

describe('token mode, bound to 0.0.0.0', () => {
  let app: FaultlineProcess;
  let base: string;
  beforeAll(async () => {
    app = await startFaultline({ args: ['--host', '0.0.0.0'], env: { FAULTLINE_DASHBOARD_TOKEN: TOKEN } });
    base = viaLoopback(app);
  });
  afterAll(() => app?.stop());

  const login = (body: string, headers: Record<string, string> = {}) =>
    send(`${base}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base, ...headers },
      body,
    });

  it('sends an anonymous page to /login and answers the API with 401', async () => {
    const page = await send(`${base}/sql?name=x`);
    expect(page.status).toBe(303);
    expect(page.headers.location).toBe('/login?next=%2Fsql%3Fname%3Dx');
    expect((await send(`${base}/_next/static/chunks/x.js`)).status).toBe(303);
    const api = await send(`${base}/api/sql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: SELECT_ONE,
    });
    expect(api.status).toBe(401);
    expect(api.headers['www-authenticate']).toMatch(/^Bearer/);
    const form = await send(`${base}/login?next=%2Fsql`);
    expect(form.status).toBe(200);
    expect(form.body).toMatch(/name="token" type="password"/);
    expect(form.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
  });

  it('refuses a wrong token and a sign-in posted from elsewhere or without Origin', async () => {
    const wrong = await login('token=not-the-token-0123456789');
    expect(wrong.status).toBe(401);
    expect(wrong.headers['set-cookie']).toBeUndefined();
    expect(wrong.body).toMatch(/Wrong access token/);
    expect(wrong.body).not.toContain(TOKEN);
    expect((await login(`token=${TOKEN}`, { origin: 'http://evil.example' })).status).toBe(403);
    expect(
      (
        await send(`${base}/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `token=${TOKEN}`,
        })
      ).status,
    ).toBe(403);
  });

  it('signs in to an HttpOnly SameSite=Strict session that opens pages and the console', async () => {
    const signedIn = await login(`token=${encodeURIComponent(TOKEN)}&next=%2Fsql`);
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.location).toBe('/sql');
    const setCookie = String(signedIn.headers['set-cookie']?.[0]);
    expect(setCookie).toMatch(
      /^faultline_session=[\w-]{43}; Path=\/; Max-Age=43200; HttpOnly; SameSite=Strict$/,
    );
    const cookie = sessionFrom(signedIn);

    expect((await send(`${base}/sql`, { headers: { cookie } })).status).toBe(200);
    const sql = (headers: Record<string, string>) =>
      send(`${base}/api/sql`, { method: 'POST', headers: { cookie, ...headers }, body: SELECT_ONE });
    const ok = await sql({ 'content-type': 'application/json', origin: base });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body).rows).toEqual([{ one: 1 }]);
    // The session does not lift the CSRF rule: the cookie alone is what a forged request would carry.
    expect((await sql({ 'content-type': 'application/json', origin: 'http://evil.example' })).status).toBe(
      403,
    );
    expect((await sql({ 'content-type': 'text/plain', origin: base })).status).toBe(415);
    expect((await sql({ 'content-type': 'application/json' })).status).toBe(403);

    const out = await send(`${base}/logout`, {
      method: 'POST',
      headers: { cookie, origin: base, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(out.status).toBe(303);
    expect(String(out.headers['set-cookie']?.[0])).toMatch(/^faultline_session=; .*Max-Age=0/);
    expect((await send(`${base}/sql`, { headers: { cookie } })).status).toBe(303);
  });

  it('takes Authorization: Bearer from scripts, without Origin; a wrong one is 401', async () => {
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` };
    const ok = await send(`${base}/api/sql`, { method: 'POST', headers, body: SELECT_ONE });
    expect(ok.status).toBe(200);
    const wrong = await send(`${base}/api/sql`, {
      method: 'POST',
      headers: { ...headers, authorization: 'Bearer wrong-token-0123456789abcdef' },
      body: SELECT_ONE,
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).not.toContain(TOKEN);
  });

  it('in Chromium: /sql → /login → signed in, the console runs a query through the gate', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.context.newPage();
      await page.goto(`${base}/sql`);
      expect(new URL(page.url()).pathname).toBe('/login');
      await page.locator('input[name="token"]').fill(TOKEN);
      await Promise.all([
        page.waitForURL(`${base}/sql`),
        page.getByRole('button', { name: 'Sign in' }).click(),
      ]);
      const [cookie] = await browser.context.cookies(base);
      expect(cookie).toMatchObject({
        name: 'faultline_session',
        httpOnly: true,
        sameSite: 'Strict',
        secure: false,
      });
      await page.getByTestId('sql-editor').fill('SELECT 41 + 1 AS answer');
      await page.getByTestId('run-sql').click();
      await page.getByTestId('sql-table').waitFor();
      expect(await page.getByTestId('sql-table').textContent()).toContain('42');
    } finally {
      await browser.close();
    }
  });
});

describe('trusted proxy (and a users file), bound to 0.0.0.0', () => {
  let app: FaultlineProcess;
  let fromProxy: string;
  let elsewhere: string;
  let own: string;
  const dir = mkdtempSync(join(tmpdir(), 'faultline-auth-users-'));
  beforeAll(async () => {
    own = ownAddress();
    const usersFile = join(dir, 'users');
    writeFileSync(usersFile, `alice:${await hashPassword('alice-password-123')}\n`);
    app = await startFaultline({
      args: ['--host', '0.0.0.0'],
      env: { FAULTLINE_DASHBOARD_TRUSTED_PROXIES: '127.0.0.1/32', FAULTLINE_DASHBOARD_USERS_FILE: usersFile },
    });
    fromProxy = viaLoopback(app);
    elsewhere = app.dashboardUrl.replace('://0.0.0.0:', `://${own}:`);
  });
  afterAll(async () => {
    await app?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('honours X-Forwarded-User / -Email from the trusted address only', async () => {
    expect((await send(`${fromProxy}/sql`, { headers: { 'x-forwarded-user': 'alice' } })).status).toBe(200);
    expect(
      (await send(`${fromProxy}/sql`, { headers: { 'x-forwarded-email': 'alice@example.com' } })).status,
    ).toBe(200);
    const spoofed = await send(`${elsewhere}/sql`, {
      headers: { 'x-forwarded-user': 'alice' },
      localAddress: own,
    });
    expect(spoofed.status).toBe(403);
    expect(spoofed.body).toMatch(
      new RegExp(`from ${own.replace(/\./g, '\\.')}, which is not in FAULTLINE_DASHBOARD_TRUSTED_PROXIES`),
    );
    expect((await send(`${elsewhere}/sql`, { localAddress: own })).status).toBe(303);
    expect(
      (
        await send(`${fromProxy}/api/sql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: fromProxy },
          body: SELECT_ONE,
        })
      ).status,
    ).toBe(401);
  });

  it("the proxy header is ambient (the proxy's own cookie): the CSRF rule still holds", async () => {
    const post = (headers: Record<string, string>) =>
      send(`${fromProxy}/api/sql`, {
        method: 'POST',
        headers: { 'x-forwarded-user': 'alice', 'content-type': 'application/json', ...headers },
        body: SELECT_ONE,
      });
    expect((await post({ origin: fromProxy })).status).toBe(200);
    expect((await post({})).status).toBe(403);
    expect((await post({ origin: 'http://evil.example' })).status).toBe(403);
  });

  it('elsewhere, a users-file sign-in works; a wrong password is refused', async () => {
    const login = (body: string) =>
      send(`${elsewhere}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: elsewhere },
        body,
        localAddress: own,
      });
    expect((await login('user=alice&password=wrong-password-123')).status).toBe(401);
    expect((await login('user=mallory&password=alice-password-123')).status).toBe(401);
    const ok = await login('user=alice&password=alice-password-123');
    expect(ok.status).toBe(303);
    const cookie = sessionFrom(ok);
    expect((await send(`${elsewhere}/sql`, { headers: { cookie }, localAddress: own })).status).toBe(200);
  });
});

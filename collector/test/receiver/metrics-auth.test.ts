import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Collector, startCollector } from '../../src/index.js';
import { openTestStore, type TestStore } from './helpers/test-store.js';

// /metrics is open on loopback and takes the ingest token beyond it. "Beyond loopback" is the
// bind address, not the caller's: a reverse proxy on the same host would make every outside
// scrape look local. The receivers below bind 0.0.0.0 and are reached through 127.0.0.1.
const TOKEN = 'metrics-test-token-0123456789';

let t: TestStore;
const started: Collector[] = [];

async function collector(options: { host: string; token?: string; allowInsecureBind?: boolean }) {
  const c = await startCollector({
    store: t.store,
    port: 0,
    ...options,
    writerOptions: { spoolDir: `${t.dir}/wal-${started.length}` },
  });
  started.push(c);
  return `http://127.0.0.1:${c.port}`;
}

beforeAll(async () => {
  t = await openTestStore('metrics-auth');
});

afterAll(async () => {
  for (const c of started) await c.close();
  await t?.cleanup();
});

describe('/metrics', () => {
  it('beyond loopback: 401 without the ingest token, 200 with it; /healthz stays open', async () => {
    const url = await collector({ host: '0.0.0.0', token: TOKEN });
    const bare = await fetch(`${url}/metrics`);
    expect(bare.status).toBe(401);
    expect(bare.headers.get('www-authenticate')).toBe('Bearer');
    expect((await bare.json()).detail).toMatch(/FAULTLINE_INGEST_TOKEN/);
    expect(
      (await fetch(`${url}/metrics`, { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status,
    ).toBe(401);
    const authorized = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(authorized.status).toBe(200);
    expect(await authorized.text()).toMatch(/^faultline_/m);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });

  it('on loopback: open without the token, even when one is set', async () => {
    const url = await collector({ host: '127.0.0.1', token: TOKEN });
    const res = await fetch(`${url}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/^faultline_/m);
  });

  it('beyond loopback with FAULTLINE_ALLOW_INSECURE_BIND and no token: open, as ingest is', async () => {
    const url = await collector({ host: '0.0.0.0', allowInsecureBind: true });
    expect((await fetch(`${url}/metrics`)).status).toBe(200);
  });
});

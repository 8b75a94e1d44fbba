import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Collector, startCollector } from '@faultline/collector';
import { openStore, type Store } from '@faultline/sql';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { IngestBanner, IngestBannerView, IngestHealth } from '../src/components/ingest-banner';
import { loadIngestHealth } from '../src/server/ingest-health';

// The ingest banner and panel over a real collector started in this process (the one-process
// mode), on a real chDB store, fed real OTLP/HTTP requests. Inserts are held or made to fail
// for real (a gate on the store, the table renamed away), never faked in the health numbers.
let dir: string;
let store: Store;
let collector: Collector | undefined;
let gate: Promise<void> = Promise.resolve();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fl-h9-banner-'));
  store = await openStore({ dataDir: join(dir, 'data') });
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

afterAll(async () => {
  await collector?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const render = async (component: () => Promise<React.ReactElement>) =>
  renderToStaticMarkup(await component());
const text = (html: string) => html.replace(/<[^>]+>/g, '').replace(/&#x27;/g, "'");

let seq = 0;
function body(service: string, n: number, badTraceIds = 0): string {
  const spans = Array.from({ length: n }, (_, i) => {
    seq++;
    return {
      traceId: i < badTraceIds ? '0'.repeat(32) : `${'c'.repeat(16)}${seq.toString(16).padStart(16, '0')}`,
      spanId: seq.toString(16).padStart(16, '0'),
      name: 'op',
      startTimeUnixNano: '1732886403000000000',
      endTimeUnixNano: '1732886403000000010',
    };
  });
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] },
        scopeSpans: [{ spans }],
      },
    ],
  });
}

async function post(payload: string, contentType = 'application/json'): Promise<number> {
  const res = await fetch(`${collector!.url}/v1/traces`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: payload,
  });
  await res.arrayBuffer();
  return res.status;
}

const cell = (html: string, id: string) =>
  text(new RegExp(`data-testid="${id}">(.*?)</td>`).exec(html)?.[1] ?? '');

describe('ingest banner and panel', () => {
  it('without a collector in this process: no banner, and the panel says where the counters are', async () => {
    expect(await loadIngestHealth()).toBeNull();
    expect(await render(IngestBanner)).toBe('');
    expect(text(await render(IngestHealth))).toContain(
      "No collector runs in this process: its counters are at the collector's GET /healthz.",
    );
  });

  it('healthy ingest: no banner; the panel counts accepted and stored', async () => {
    // The store as the collector sees it, with an insert gate the later cases close.
    const gated = Object.assign(Object.create(store) as Store, {
      ensureSchema: () => gate.then(() => store.ensureSchema()),
    });
    collector = await startCollector({
      store: gated,
      port: 0,
      writerOptions: { maxBatchDelayMs: 5, retryDelayMs: 50, maxRetryDelayMs: 100 },
    });
    expect(await post(body('banner', 20))).toBe(200);
    await collector.writer.settle();
    expect(await render(IngestBanner)).toBe('');
    const panel = await render(IngestHealth);
    expect(panel).toContain('data-testid="ingest-health"');
    expect({
      accepted: cell(panel, 'ingest-accepted'),
      stored: cell(panel, 'ingest-stored'),
      refused: cell(panel, 'ingest-refused'),
      pending: cell(panel, 'ingest-pending'),
      errors: cell(panel, 'ingest-insert-errors'),
    }).toEqual({ accepted: '20', stored: '20', refused: '0 spans, 0 requests', pending: '0', errors: '0' });
  });

  it('spans accepted but waiting: no banner for the normal moment, a banner once they wait 5 s', async () => {
    let open!: () => void;
    gate = new Promise<void>((r) => {
      open = r;
    });
    expect(await post(body('banner', 10))).toBe(200);
    const health = (await loadIngestHealth())!;
    expect(health).toMatchObject({ accepted: 30, stored: 20, pending: 10 });
    expect(await render(IngestBanner)).toBe('');
    const later = renderToStaticMarkup(
      createElement(IngestBannerView, { health, now: health.oldestPendingAt! + 6_000 }),
    );
    expect(later).toContain('data-testid="ingest-banner"');
    expect(later).toContain('role="alert"');
    expect(text(later)).toContain(
      '10 accepted spans are not stored yet (the oldest waits 6 s): pages and SQL do not count them.',
    );
    expect(text(later)).toContain(`They are safe on disk in ${join(dir, 'data', 'wal')}`);
    open();
    await collector!.writer.settle();
    expect(await render(IngestBanner)).toBe('');
  });

  it('inserts failing: the banner shows at once with the error, and goes once the spans are stored', async () => {
    await store.client.command({ query: 'RENAME TABLE otel_traces TO otel_traces_away' });
    try {
      expect(await post(body('banner', 5))).toBe(200);
      await vi.waitFor(
        async () => expect((await loadIngestHealth())!.insertErrors.count).toBeGreaterThan(0),
        {
          timeout: 10_000,
        },
      );
      const banner = text(await render(IngestBanner));
      expect(banner).toContain('5 accepted spans are not stored yet');
      expect(banner).toMatch(
        /Last insert error at \d\d:\d\d:\d\d UTC \(\d+ failed attempts?\): .*otel_traces does not exist/,
      );
      const panel = await render(IngestHealth);
      expect(cell(panel, 'ingest-pending')).toBe('5');
      expect(cell(panel, 'ingest-insert-errors')).toMatch(/^\d+ \(last at .*otel_traces does not exist/);
    } finally {
      await store.client.command({ query: 'RENAME TABLE otel_traces_away TO otel_traces' });
    }
    await collector!.writer.settle();
    expect(await render(IngestBanner)).toBe('');
    const rows = await store.runReadOnly<{ n: number }>(
      "SELECT count() AS n FROM otel_traces WHERE ServiceName = 'banner'",
    );
    expect(Number(rows.rows[0]!.n)).toBe(35);
  });

  it('refused requests and spans: the banner says how many, why, and what to do', async () => {
    expect(await post('{}', 'text/plain')).toBe(415);
    expect(await post(body('banner', 3, 1))).toBe(200); // one span with an all-zero trace id is dropped
    await collector!.writer.settle();
    const html = await render(IngestBanner);
    expect(html).toContain('data-testid="ingest-banner-refused"');
    expect(html).not.toContain('data-testid="ingest-banner-unstored"');
    const banner = text(html);
    expect(banner).toContain(
      '1 request answered 415 (unsupported Content-Type: send application/x-protobuf or application/json)',
    );
    expect(banner).toContain('1 malformed span dropped from accepted requests (fix the sender)');
    expect(banner).toContain('1 span refused in all.');
    const panel = await render(IngestHealth);
    expect([
      cell(panel, 'ingest-accepted'),
      cell(panel, 'ingest-stored'),
      cell(panel, 'ingest-refused'),
    ]).toEqual(['37', '37', '1 span, 1 request']);
  });

  it('a span ClickHouse refuses on its own: set aside with the reason, its batch-mates stored, the banner says where', async () => {
    // A real refusal: a CHECK constraint the operator put on the table, broken by one service's
    // spans, which arrive in the same batch as honest ones.
    await store.client.command({
      query: "ALTER TABLE otel_traces ADD CONSTRAINT banner_no_poison CHECK ServiceName != 'banner-poison'",
    });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const two = JSON.parse(body('banner', 6)) as { resourceSpans: unknown[] };
      two.resourceSpans.push(
        ...(JSON.parse(body('banner-poison', 2)) as { resourceSpans: unknown[] }).resourceSpans,
      );
      expect(await post(JSON.stringify(two))).toBe(200);
      await collector!.writer.settle();
    } finally {
      logged.mockRestore();
      await store.client.command({ query: 'ALTER TABLE otel_traces DROP CONSTRAINT banner_no_poison' });
    }
    const html = await render(IngestBanner);
    expect(html).toContain('data-testid="ingest-banner-quarantined"');
    expect(html).not.toContain('data-testid="ingest-banner-unstored"');
    const banner = text(html);
    expect(banner).toContain('2 spans were set aside: ClickHouse refused them on their own');
    expect(banner).toContain('banner_no_poison');
    expect(banner).toContain(join(dir, 'data', 'wal', 'rejected'));
    expect(cell(await render(IngestHealth), 'ingest-quarantined')).toBe('2');
    const rows = await store.runReadOnly<{ s: string; n: number }>(
      "SELECT ServiceName AS s, count() AS n FROM otel_traces WHERE ServiceName LIKE 'banner%' GROUP BY s ORDER BY s",
    );
    expect(rows.rows.map((r) => [r.s, Number(r.n)])).toEqual([['banner', 43]]);
  });

  it('once the collector is closed, there is nothing to report', async () => {
    await collector!.close();
    collector = undefined;
    expect(await render(IngestBanner)).toBe('');
  });
});

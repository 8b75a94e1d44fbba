import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ChunkedUpstream,
  DECLINED_BODY,
  LARGE_BODY_BYTES,
  startChunkedUpstream,
} from './helpers/chunked-upstream.js';
import { type OtlpReceiver, startOtlpReceiver } from './helpers/otlp-receiver.js';
import { type FixtureResult, type FixtureRun, runBareAndPreloaded } from './helpers/run-fixture.js';
import { envelopeOf, httpClientSpans } from './helpers/spans.js';

/** A small bound, so the bodies at its edge stay small. */
const BOUND = 300;
/** What the preload may hold beyond the bare application halfway through a 50 MiB body. */
const HELD_SLACK_BYTES = 1024 * 1024;

interface Printed {
  httpLarge: { bytes: number; sha256: string };
  fetchLarge: { bytes: number; sha256: string };
  httpHeldHalfway: number;
  fetchHeldHalfway: number;
  httpSlow: string;
  fetchSlow: string;
  lingeredMs: number;
  [sized: string]: unknown;
}

const RUNS: FixtureRun[] = [
  { mode: 'import', fixture: 'body-streams.mjs' },
  { mode: 'require', fixture: 'body-streams.cjs' },
];

describe.each(RUNS)('chunked bodies past the bound, slow and unread, under --$mode', (run) => {
  let receiver: OtlpReceiver;
  let upstream: ChunkedUpstream;
  let bare: FixtureResult;
  let preloaded: FixtureResult;
  let out: Printed;
  let bareOut: Printed;

  beforeAll(async () => {
    [receiver, upstream] = await Promise.all([startOtlpReceiver(), startChunkedUpstream()]);
    [bare, preloaded] = await runBareAndPreloaded(
      run,
      { UPSTREAM_URL: upstream.url, BOUND: String(BOUND), FAULTLINE_BODY_PEEK_MAX_BYTES: String(BOUND) },
      receiver.url,
    );
    out = JSON.parse(preloaded.stdout) as Printed;
    bareOut = JSON.parse(bare.stdout) as Printed;
  });

  afterAll(async () => {
    await Promise.all([receiver?.close(), upstream?.close()]);
  });

  it('delivers every byte of a 50 MiB chunked body unchanged', () => {
    expect(preloaded.stderr).toBe('');
    expect(preloaded.code).toBe(0);
    for (const via of ['http', 'fetch'] as const) {
      const sent = upstream.sent.get(`/large?via=${via}`);
      expect(sent?.bytes).toBe(LARGE_BODY_BYTES);
      expect(out[`${via}Large`], via).toEqual(sent);
      expect(bareOut[`${via}Large`], via).toEqual(sent);
    }
  });

  it('holds no more than the bare application halfway through it', () => {
    console.log(
      `held halfway (${run.mode}): http ${out.httpHeldHalfway} vs bare ${bareOut.httpHeldHalfway}, fetch ${out.fetchHeldHalfway} vs bare ${bareOut.fetchHeldHalfway}`,
    );
    expect(out.httpHeldHalfway).toBeLessThan(bareOut.httpHeldHalfway + HELD_SLACK_BYTES);
    expect(out.fetchHeldHalfway).toBeLessThan(bareOut.fetchHeldHalfway + HELD_SLACK_BYTES);
  });

  it('does not classify a body over the bound from its bytes', () => {
    for (const via of ['http', 'fetch']) {
      const spans = httpClientSpans(receiver.spans, `/large?via=${via}`);
      expect(spans, via).toHaveLength(1);
      expect(envelopeOf(spans[0]).class, via).toBeUndefined();
      const over = httpClientSpans(receiver.spans, `/sized?bytes=${BOUND + 1}&via=${via}`);
      expect(over, via).toHaveLength(1);
      expect(envelopeOf(over[0]).class, via).toBeUndefined();
      expect(out[`${via}Sized${BOUND + 1}`]).toBe(BOUND + 1);
    }
  });

  it('classifies a body of exactly the bound', () => {
    for (const via of ['http', 'fetch']) {
      const spans = httpClientSpans(receiver.spans, `/sized?bytes=${BOUND}&via=${via}`);
      expect(spans, via).toHaveLength(1);
      expect(envelopeOf(spans[0]), via).toMatchObject({ class: 'permanent', code: 'card_declined' });
      expect(out[`${via}Sized${BOUND}`]).toBe(BOUND);
    }
  });

  it('hands the application the first chunk before the server sends the second', () => {
    for (const via of ['http', 'fetch']) {
      expect(upstream.ackedBeforeSecond.get(`/slow?via=${via}`), via).toBe(true);
      const spans = httpClientSpans(receiver.spans, `/slow?via=${via}`);
      expect(envelopeOf(spans[0]), via).toMatchObject({ class: 'permanent', code: 'card_declined' });
    }
    expect(out.httpSlow).toBe(DECLINED_BODY);
    expect(out.fetchSlow).toBe(DECLINED_BODY);
  });

  it('exports unread and cancelled bodies’ spans without peeking them, and lets the process exit', () => {
    for (const via of ['http', 'fetch', 'fetch-cancel']) {
      const spans = httpClientSpans(receiver.spans, `/unread?via=${via}`);
      expect(spans, via).toHaveLength(1);
      expect(spans[0]?.attributes['http.response.status_code'], via).toBe(200);
      expect(envelopeOf(spans[0]).class, via).toBeUndefined();
    }
    console.log(
      `lingered after the last call (${run.mode}): ${out.lingeredMs} ms, bare ${bareOut.lingeredMs} ms`,
    );
    // The bare script lingers too (its idle sockets close): the preload adds well under the 2 s a
    // span waits for an unread fetch body, so neither that wait nor a held connection keeps it.
    expect(out.lingeredMs).toBeLessThan(bareOut.lingeredMs + 1000);
  });
});

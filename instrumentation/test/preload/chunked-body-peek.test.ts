import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ChunkedUpstream,
  DECLINED_BODY,
  FINE_BODY,
  startChunkedUpstream,
} from './helpers/chunked-upstream.js';
import { type OtlpReceiver, startOtlpReceiver } from './helpers/otlp-receiver.js';
import { bothWaysRuns, type FixtureResult, runBareAndPreloaded } from './helpers/run-fixture.js';
import { envelopeOf, httpClientSpans, STATUS_ERROR } from './helpers/spans.js';

/** Every way the fixture reads a body; the span of each is found by its `?via=` suffix. */
const HTTP_READERS = [
  'http-on-data',
  'http-encoding',
  'http-pipe',
  'http-for-await',
  'http-resume',
  'http-late',
  'axios',
];
const FETCH_READERS = [
  'fetch-json',
  'fetch-text',
  'fetch-array-buffer',
  'fetch-reader',
  'fetch-byob',
  'fetch-for-await',
  'fetch-pipe-to',
  'fetch-from-web',
  'fetch-clone',
  'fetch-late',
];

// Issue #9: a 200 {"ok":false} sent with res.write/res.end carries no Content-Length.
describe.concurrent.each(bothWaysRuns('body-readers.mjs', 'body-readers.cjs'))(
  'chunked JSON bodies under --$mode with $fixture',
  (run) => {
    let receiver: OtlpReceiver;
    let upstream: ChunkedUpstream;
    let bare: FixtureResult;
    let preloaded: FixtureResult;

    beforeAll(async () => {
      [receiver, upstream] = await Promise.all([startOtlpReceiver(), startChunkedUpstream()]);
      [bare, preloaded] = await runBareAndPreloaded(
        run,
        { OTEL_SERVICE_NAME: 'fl-chunked', UPSTREAM_URL: upstream.url },
        receiver.url,
      );
    });

    afterAll(async () => {
      await Promise.all([receiver?.close(), upstream?.close()]);
    });

    it('gives the application the same bodies as without the preload', () => {
      expect(preloaded.stderr).toBe('');
      expect(preloaded.code).toBe(0);
      expect(preloaded.stdout).toBe(bare.stdout);
      const results = JSON.parse(preloaded.stdout) as Record<string, string>;
      for (const via of [...HTTP_READERS, ...FETCH_READERS]) {
        if (via === 'http-resume') expect(results[via]).toBe('(discarded)');
        else if (via === 'fetch-clone') expect(results[via]).toBe(`${DECLINED_BODY}|${DECLINED_BODY}`);
        else expect(results[via], via).toBe(DECLINED_BODY);
      }
      expect(results['fetch-gzip']).toBe(DECLINED_BODY);
      expect(results['http-fine']).toBe(FINE_BODY);
      expect(results['fetch-fine']).toBe(FINE_BODY);
    });

    it('puts the body’s envelope on the client span of every reader, node:http and fetch', () => {
      for (const via of [...HTTP_READERS, ...FETCH_READERS]) {
        const spans = httpClientSpans(receiver.spans, `/declined?via=${via}`);
        expect(spans, via).toHaveLength(1);
        const span = spans[0];
        expect(span?.attributes['http.response.status_code'], via).toBe(200);
        expect(envelopeOf(span), via).toMatchObject({
          class: 'permanent',
          source: 'http',
          code: 'card_declined',
          retryable: false,
        });
        expect(span?.statusCode, via).toBe(STATUS_ERROR);
      }
    });

    it('peeks a gzip body fetch decoded', () => {
      const spans = httpClientSpans(receiver.spans, '/declined?gzip=1&via=fetch-gzip');
      expect(spans).toHaveLength(1);
      expect(envelopeOf(spans[0])).toMatchObject({ class: 'permanent', code: 'card_declined' });
    });

    it('leaves chunked successes without an envelope', () => {
      for (const via of ['http-fine', 'fetch-fine']) {
        const spans = httpClientSpans(receiver.spans, `/fine?via=${via}`);
        expect(spans, via).toHaveLength(1);
        expect(envelopeOf(spans[0]).class, via).toBeUndefined();
      }
    });
  },
);

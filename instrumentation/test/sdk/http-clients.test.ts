import axios from 'axios';
import got from 'got';
import ky from 'ky';
import { describe, it } from 'vitest';
import { ALL_SECRETS, closedPort, expectEnvelope, PLANTED, thrownBy, useFakeVendor } from './fake-vendor.js';

/**
 * Generic HTTP clients against one fake vendor: axios (AxiosError keeps `response` { status,
 * headers: AxiosHeaders, data }, node_modules/axios/lib/core/AxiosError.js), got (HTTPError keeps
 * `response` { statusCode, headers, body }, TimeoutError code ETIMEDOUT, node_modules/got/dist/source/core/errors.js),
 * ky (HTTPError keeps the fetch `response`, whose body is a stream; TimeoutError for its own
 * `timeout`, node_modules/ky/distribution/errors/). Responses: RFC 9110 §10.2.3 Retry-After,
 * RFC 9457 problem details, draft-ietf-httpapi-ratelimit-headers.
 */

const vendor = useFakeVendor();

const auth = { authorization: `Bearer ${PLANTED.bearer}` };
const payload = { user: 'a', password: PLANTED.password };
const axiosPost = (url = `${vendor.url}/v1/items`, timeout = 0) =>
  axios.post(url, payload, { headers: auth, timeout });
const gotPost = (url = `${vendor.url}/v1/items`, timeout?: number) =>
  got.post(url, {
    json: payload,
    headers: auth,
    retry: { limit: 0 },
    ...(timeout ? { timeout: { request: timeout } } : {}),
  });
const kyPost = (url = `${vendor.url}/v1/items`, timeout: number | false = false) =>
  ky.post(url, { json: payload, headers: auth, retry: 0, timeout });

describe('axios', () => {
  it('429 with Retry-After seconds waits them (RFC 9110 §10.2.3)', async () => {
    vendor.answer({ status: 429, headers: { 'retry-after': '12' }, body: { message: 'slow down' } });
    expectEnvelope(
      await thrownBy(() => axiosPost()),
      { class: 'rate_limit', code: '429', retry_after: 12, source: 'http' },
      ALL_SECRETS,
    );
  });

  it('503 problem body with retryable:false is not retried (RFC 9457 extension member)', async () => {
    vendor.answer({
      status: 503,
      headers: { 'content-type': 'application/problem+json' },
      body: { type: 'about:blank', title: 'Maintenance', status: 503, retryable: false },
    });
    expectEnvelope(
      await thrownBy(() => axiosPost()),
      { class: 'transient', code: '503', retryable: false, retry_after: null },
      ALL_SECRETS,
    );
  });

  it('400 echoing the JSON password in its detail is validation and redacted (RFC 9457)', async () => {
    vendor.answer({
      status: 400,
      body: { title: 'Bad Request', detail: `rejected body {"password": "${PLANTED.password}"}` },
    });
    expectEnvelope(await thrownBy(() => axiosPost()), { class: 'validation', code: '400' }, ALL_SECRETS);
  });

  it('a refused connection is ECONNREFUSED (AxiosError code from the socket)', async () => {
    const port = await closedPort();
    expectEnvelope(
      await thrownBy(() => axiosPost(`http://127.0.0.1:${port}/`)),
      { class: 'transient', code: 'ECONNREFUSED' },
      ALL_SECRETS,
    );
  });

  it("axios's own timeout is transient (lib/adapters/http.js ECONNABORTED)", async () => {
    vendor.answer({ status: 200, body: {}, delayMs: 1500 });
    expectEnvelope(
      await thrownBy(() => axiosPost(undefined, 100)),
      { class: 'transient', code: 'ECONNABORTED' },
      ALL_SECRETS,
    );
  });
});

describe('got', () => {
  it('429 with RateLimit-Reset only: the reset is the wait (draft-ietf-httpapi-ratelimit-headers)', async () => {
    vendor.answer({
      status: 429,
      headers: { 'ratelimit-remaining': '0', 'ratelimit-reset': '42' },
      body: { error: 'rate limited' },
    });
    expectEnvelope(
      await thrownBy(() => gotPost()),
      { class: 'rate_limit', code: '429', retry_after: 42 },
      ALL_SECRETS,
    );
  });

  it('401 is authentication (RFC 9110 §15.5.2)', async () => {
    vendor.answer({
      status: 401,
      headers: { 'www-authenticate': 'Bearer error="invalid_token"' },
      body: { error: 'invalid_token' },
    });
    expectEnvelope(
      await thrownBy(() => gotPost()),
      { class: 'authentication', code: 'invalid_token' },
      ALL_SECRETS,
    );
  });

  it('a refused connection is ECONNREFUSED (RequestError code)', async () => {
    const port = await closedPort();
    expectEnvelope(
      await thrownBy(() => gotPost(`http://127.0.0.1:${port}/`)),
      { class: 'transient', code: 'ECONNREFUSED' },
      ALL_SECRETS,
    );
  });

  it("got's own timeout is transient ETIMEDOUT (core/timed-out.js TimeoutError)", async () => {
    vendor.answer({ status: 200, body: {}, delayMs: 1500 });
    expectEnvelope(
      await thrownBy(() => gotPost(undefined, 100)),
      { class: 'transient', code: 'ETIMEDOUT' },
      ALL_SECRETS,
    );
  });
});

describe('ky', () => {
  it('503 with Retry-After as an HTTP-date waits until then (RFC 9110 §10.2.3)', async () => {
    const at = new Date(Date.now() + 30_000).toUTCString();
    vendor.answer({ status: 503, headers: { 'retry-after': at }, body: 'down for maintenance' });
    expectEnvelope(
      await thrownBy(() => kyPost()),
      { class: 'transient', code: '503', retry_after: { min: 24, max: 31 } },
      ALL_SECRETS,
    );
  });

  it('404 is permanent (RFC 9110 §15.5.5)', async () => {
    vendor.answer({ status: 404, body: { message: 'Not Found' } });
    expectEnvelope(await thrownBy(() => kyPost()), { class: 'permanent', code: '404' }, ALL_SECRETS);
  });

  it("ky's own timeout is transient, not a caller's abort (distribution/errors/TimeoutError.js)", async () => {
    vendor.answer({ status: 200, body: {}, delayMs: 1500 });
    expectEnvelope(
      await thrownBy(() => kyPost(undefined, 100)),
      { class: 'transient', code: 'ETIMEDOUT' },
      ALL_SECRETS,
    );
  });

  it("a caller's abort through ky is the caller's: permanent (fetch AbortError)", async () => {
    vendor.answer({ status: 200, body: {}, delayMs: 1500 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const err = await thrownBy(() =>
      ky.post(`${vendor.url}/v1/items`, {
        json: payload,
        retry: 0,
        timeout: false,
        signal: controller.signal,
      }),
    );
    expectEnvelope(err, { class: 'permanent', code: 'AbortError', retryable: false }, ALL_SECRETS);
  });

  it('a refused connection is ECONNREFUSED (fetch failed cause)', async () => {
    const port = await closedPort();
    expectEnvelope(
      await thrownBy(() => kyPost(`http://127.0.0.1:${port}/`)),
      { class: 'transient', code: 'ECONNREFUSED' },
      ALL_SECRETS,
    );
  });
});

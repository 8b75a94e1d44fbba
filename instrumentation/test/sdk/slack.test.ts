import { WebClient } from '@slack/web-api';
import { describe, it } from 'vitest';
import { ALL_SECRETS, closedPort, expectEnvelope, PLANTED, thrownBy, useFakeVendor } from './fake-vendor.js';

/**
 * @slack/web-api against a fake slack.com/api. Platform errors are HTTP 200 `{ ok: false, error }`
 * (https://api.slack.com/web#evaluating_responses), rate limits a 429 with Retry-After
 * (https://api.slack.com/apis/rate-limits). The SDK throws WebAPIPlatformError (`data` = the body),
 * WebAPIRateLimitedError (`retryAfter` seconds, no status), WebAPIHTTPError (`statusCode`,
 * `headers`, `body`) and WebAPIRequestError (`original`, `cause`) (node_modules/@slack/web-api/dist/errors.js).
 */

const vendor = useFakeVendor();

const client = (url = `${vendor.url}/api/`) =>
  new WebClient(PLANTED.slackToken, {
    slackApiUrl: url,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
  });
const post = (c = client()) => c.chat.postMessage({ channel: 'C1', text: `password=${PLANTED.password}` });

describe('@slack/web-api errors', () => {
  it('ok:false channel_not_found is permanent with the Slack code (chat.postMessage errors)', async () => {
    vendor.answer({ status: 200, body: { ok: false, error: 'channel_not_found' } });
    expectEnvelope(
      await thrownBy(() => post()),
      { class: 'permanent', code: 'channel_not_found', source: 'sdk' },
      ALL_SECRETS,
    );
  });

  it('ok:false invalid_auth is authentication (chat.postMessage errors)', async () => {
    vendor.answer({ status: 200, body: { ok: false, error: 'invalid_auth' } });
    expectEnvelope(
      await thrownBy(() => post()),
      { class: 'authentication', code: 'invalid_auth' },
      ALL_SECRETS,
    );
  });

  it('ok:false invalid_arguments is validation (web#evaluating_responses)', async () => {
    vendor.answer({
      status: 200,
      body: {
        ok: false,
        error: 'invalid_arguments',
        response_metadata: { messages: ['[ERROR] missing required field: channel'] },
      },
    });
    expectEnvelope(
      await thrownBy(() => post()),
      { class: 'validation', code: 'invalid_arguments' },
      ALL_SECRETS,
    );
  });

  it('429 with Retry-After is a rate limit with the wait; the code is the status (apis/rate-limits)', async () => {
    vendor.answer({
      status: 429,
      headers: { 'retry-after': '30' },
      body: { ok: false, error: 'ratelimited' },
    });
    expectEnvelope(
      await thrownBy(() => post()),
      { class: 'rate_limit', code: '429', retry_after: 30 },
      ALL_SECRETS,
    );
  });

  it('HTTP 503 is transient with the status (WebAPIHTTPError)', async () => {
    vendor.answer({ status: 503, headers: { 'content-type': 'text/plain' }, body: 'Service Unavailable' });
    expectEnvelope(await thrownBy(() => post()), { class: 'transient', code: '503' }, ALL_SECRETS);
  });

  it('a refused connection is ECONNREFUSED, not slack_webapi_request_error (WebAPIRequestError original)', async () => {
    const port = await closedPort();
    expectEnvelope(
      await thrownBy(() => post(client(`http://127.0.0.1:${port}/api/`))),
      { class: 'transient', code: 'ECONNREFUSED' },
      ALL_SECRETS,
    );
  });
});

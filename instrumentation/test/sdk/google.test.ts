import { drive } from '@googleapis/drive';
import { Gaxios } from 'gaxios';
import { describe, it } from 'vitest';
import { ALL_SECRETS, closedPort, expectEnvelope, PLANTED, thrownBy, useFakeVendor } from './fake-vendor.js';

/**
 * Google: gaxios (GaxiosError keeps `response` { status, headers, data } and the cause,
 * node_modules/gaxios/build/cjs/src/common.js) and a googleapis client (@googleapis/drive,
 * googleapis-common over gaxios). Bodies: https://cloud.google.com/apis/design/errors
 * (`error.status`, `details[]` with google.rpc.ErrorInfo / RetryInfo) and the Drive API's
 * legacy `errors[].reason` (https://developers.google.com/drive/api/guides/handle-errors).
 */

const vendor = useFakeVendor();

const gaxios = () => new Gaxios({ headers: { 'x-goog-api-key': PLANTED.googleKey }, retry: false });
const call = (url = `${vendor.url}/v1/projects/p/topics/t:publish`, timeout?: number) =>
  gaxios().request({
    url,
    method: 'POST',
    data: { password: PLANTED.password },
    ...(timeout ? { timeout } : {}),
  });
const driveClient = () =>
  drive({ version: 'v3', auth: PLANTED.googleKey, rootUrl: `${vendor.url}/`, retry: false });

describe('gaxios', () => {
  it('429 RESOURCE_EXHAUSTED with RetryInfo waits the server retryDelay; the reason is the code (apis/design/errors)', async () => {
    vendor.answer({
      status: 429,
      body: {
        error: {
          code: 429,
          message: 'Quota exceeded for quota metric Requests per minute.',
          status: 'RESOURCE_EXHAUSTED',
          details: [
            {
              '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
              reason: 'RATE_LIMIT_EXCEEDED',
              domain: 'googleapis.com',
            },
            { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '8s' },
          ],
        },
      },
    });
    expectEnvelope(
      await thrownBy(() => call()),
      { class: 'rate_limit', code: 'RATE_LIMIT_EXCEEDED', retry_after: 8, source: 'sdk' },
      ALL_SECRETS,
    );
  });

  it('403 PERMISSION_DENIED with reason SERVICE_DISABLED is permanent, the reason its code (apis/design/errors#error_info)', async () => {
    vendor.answer({
      status: 403,
      body: {
        error: {
          code: 403,
          message: 'Cloud Pub/Sub API has not been used in project 1 before or it is disabled.',
          status: 'PERMISSION_DENIED',
          details: [
            {
              '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
              reason: 'SERVICE_DISABLED',
              domain: 'googleapis.com',
            },
          ],
        },
      },
    });
    expectEnvelope(
      await thrownBy(() => call()),
      { class: 'permanent', code: 'SERVICE_DISABLED' },
      ALL_SECRETS,
    );
  });

  it('400 INVALID_ARGUMENT without a reason keeps the status, not the canonical name (apis/design/errors)', async () => {
    vendor.answer({
      status: 400,
      body: { error: { code: 400, message: 'Invalid topic name', status: 'INVALID_ARGUMENT' } },
    });
    expectEnvelope(await thrownBy(() => call()), { class: 'validation', code: '400' }, ALL_SECRETS);
  });

  it('503 UNAVAILABLE is transient (apis/design/errors#handling_errors)', async () => {
    vendor.answer({
      status: 503,
      body: { error: { code: 503, message: 'The service is currently unavailable.', status: 'UNAVAILABLE' } },
    });
    expectEnvelope(await thrownBy(() => call()), { class: 'transient', code: '503' }, ALL_SECRETS);
  });

  it('a refused connection is ECONNREFUSED (GaxiosError cause)', async () => {
    const port = await closedPort();
    expectEnvelope(
      await thrownBy(() => call(`http://127.0.0.1:${port}/x`)),
      { class: 'transient', code: 'ECONNREFUSED' },
      ALL_SECRETS,
    );
  });

  it("gaxios's own timeout (AbortSignal.timeout) is transient (gaxios.js opts.timeout)", async () => {
    vendor.answer({ status: 200, body: {}, delayMs: 1500 });
    expectEnvelope(
      await thrownBy(() => call(undefined, 100)),
      { class: 'transient', retryable: true, code: 'ETIMEDOUT' },
      ALL_SECRETS,
    );
  });
});

describe('googleapis (@googleapis/drive)', () => {
  it('403 userRateLimitExceeded is a rate limit, not authentication (drive handle-errors#resolve_a_403_error)', async () => {
    vendor.answer({
      status: 403,
      body: {
        error: {
          code: 403,
          message: 'User Rate Limit Exceeded',
          errors: [
            { domain: 'usageLimits', reason: 'userRateLimitExceeded', message: 'User Rate Limit Exceeded' },
          ],
        },
      },
    });
    expectEnvelope(
      await thrownBy(() => driveClient().files.get({ fileId: 'f1' })),
      { class: 'rate_limit', code: 'userRateLimitExceeded' },
      ALL_SECRETS,
    );
  });

  it('403 storageQuotaExceeded is billing: permanent, not retried (drive handle-errors)', async () => {
    vendor.answer({
      status: 403,
      body: {
        error: {
          code: 403,
          message: 'The user has exceeded their Drive storage quota',
          errors: [{ domain: 'global', reason: 'storageQuotaExceeded' }],
        },
      },
    });
    expectEnvelope(
      await thrownBy(() => driveClient().files.get({ fileId: 'f1' })),
      { class: 'permanent', code: 'storageQuotaExceeded' },
      ALL_SECRETS,
    );
  });

  it('404 notFound is permanent (drive handle-errors#resolve_a_404_error)', async () => {
    vendor.answer({
      status: 404,
      body: {
        error: {
          code: 404,
          message: 'File not found: f1.',
          errors: [{ domain: 'global', reason: 'notFound', location: 'fileId' }],
        },
      },
    });
    expectEnvelope(
      await thrownBy(() => driveClient().files.get({ fileId: 'f1' })),
      { class: 'permanent', code: 'notFound' },
      ALL_SECRETS,
    );
  });

  it('401 authError is authentication (drive handle-errors#resolve_a_401_error)', async () => {
    vendor.answer({
      status: 401,
      body: {
        error: {
          code: 401,
          message: 'Invalid Credentials',
          errors: [{ domain: 'global', reason: 'authError', location: 'Authorization' }],
        },
      },
    });
    expectEnvelope(
      await thrownBy(() => driveClient().files.get({ fileId: 'f1' })),
      { class: 'authentication', code: 'authError' },
      ALL_SECRETS,
    );
  });
});

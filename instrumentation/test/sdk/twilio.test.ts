import twilio from 'twilio';
import { describe, it } from 'vitest';
import { ALL_SECRETS, expectEnvelope, PLANTED, thrownBy, useFakeVendor } from './fake-vendor.js';

/**
 * twilio (the official helper library) against a fake api.twilio.com. Error bodies are
 * `{ code, message, more_info, status }` (https://www.twilio.com/docs/usage/twilios-response#response-formats-exceptions),
 * codes from https://www.twilio.com/docs/api/errors. The SDK copies them onto RestException as
 * `status`, `code`, `moreInfo`, `details` (node_modules/twilio/lib/base/RestException.js). Twilio's
 * host is fixed, so the library's own RequestClient is kept and only the URI is pointed here.
 */

const vendor = useFakeVendor();

class LocalRequestClient extends twilio.RequestClient {
  override request<T>(opts: Parameters<twilio.RequestClient['request']>[0]) {
    const url = new URL(opts.uri);
    return super.request<T>({ ...opts, uri: `${vendor.url}${url.pathname}${url.search}` } as never);
  }
}

const sid = 'AC00000000000000000000000000000000';
const client = () =>
  twilio(sid, PLANTED.twilioToken, { httpClient: new LocalRequestClient({ autoRetry: false }) });
const send = () => client().messages.create({ to: '+15005550001', from: '+15005550006', body: 'hi' });

function twilioError(status: number, code: number, message: string) {
  vendor.answer({
    status,
    body: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status },
  });
}

describe('twilio errors', () => {
  it('429 / 20429 Too Many Requests is a rate limit, code the Twilio number (errors/20429)', async () => {
    twilioError(429, 20429, 'Too Many Requests');
    expectEnvelope(await thrownBy(send), { class: 'rate_limit', code: '20429', source: 'sdk' }, ALL_SECRETS);
  });

  it('401 / 20003 is authentication (errors/20003)', async () => {
    twilioError(401, 20003, 'Authenticate');
    expectEnvelope(await thrownBy(send), { class: 'authentication', code: '20003' }, ALL_SECRETS);
  });

  it("400 / 21211 Invalid 'To' Phone Number is validation (errors/21211)", async () => {
    twilioError(400, 21211, "The 'To' number +15005550001 is not a valid phone number.");
    expectEnvelope(await thrownBy(send), { class: 'validation', code: '21211' }, ALL_SECRETS);
  });

  it('400 / 21610 unsubscribed recipient is permanent, not validation (errors/21610)', async () => {
    twilioError(400, 21610, 'Attempt to send to unsubscribed recipient');
    expectEnvelope(await thrownBy(send), { class: 'permanent', code: '21610' }, ALL_SECRETS);
  });

  it('400 / 21611 queue of the From number is full: wait, a rate limit (errors/21611)', async () => {
    twilioError(400, 21611, "This 'From' number has exceeded the maximum number of queued messages");
    expectEnvelope(await thrownBy(send), { class: 'rate_limit', code: '21611' }, ALL_SECRETS);
  });

  it('404 / 20404 is permanent (errors/20404)', async () => {
    twilioError(404, 20404, 'The requested resource was not found');
    expectEnvelope(
      await thrownBy(() => client().messages('SM0').fetch()),
      { class: 'permanent', code: '20404' },
      ALL_SECRETS,
    );
  });

  it('503 / 20503 is transient (errors/20503)', async () => {
    twilioError(503, 20503, 'Service Unavailable');
    expectEnvelope(await thrownBy(send), { class: 'transient', code: '20503' }, ALL_SECRETS);
  });
});

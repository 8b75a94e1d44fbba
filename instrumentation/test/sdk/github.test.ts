import { graphql } from '@octokit/graphql';
import { Octokit } from '@octokit/rest';
import { describe, it } from 'vitest';
import { ALL_SECRETS, expectEnvelope, PLANTED, resetIn, thrownBy, useFakeVendor } from './fake-vendor.js';

/**
 * Octokit against a fake api.github.com. REST: @octokit/request-error's RequestError keeps
 * `status` and `response` ({ status, headers, data }) (node_modules/@octokit/request-error/dist-src);
 * rate limits as https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api#exceeding-the-rate-limit
 * describes them. GraphQL: @octokit/graphql's GraphqlResponseError keeps `headers`, `errors` and
 * `data` but no status (dist-bundle/index.js); limits as
 * https://docs.github.com/en/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api.
 */

const vendor = useFakeVendor();

const rest = () =>
  new Octokit({
    auth: PLANTED.githubToken,
    baseUrl: vendor.url,
    log: { debug() {}, info() {}, warn() {}, error() {} },
  });
const gql = () =>
  graphql.defaults({ baseUrl: vendor.url, headers: { authorization: `token ${PLANTED.githubToken}` } });
const getRepo = () => rest().rest.repos.get({ owner: 'o', repo: 'r' });
const docs = 'https://docs.github.com/rest';

describe('Octokit REST errors', () => {
  it('403 with x-ratelimit-remaining: 0 is the primary rate limit; the wait is the reset (docs: exceeding-the-rate-limit)', async () => {
    const reset = resetIn(120);
    vendor.answer({
      status: 403,
      headers: { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset.header },
      body: { message: 'API rate limit exceeded for 203.0.113.1.', documentation_url: docs },
    });
    expectEnvelope(
      await thrownBy(getRepo),
      { class: 'rate_limit', code: '403', retry_after: reset.range },
      ALL_SECRETS,
    );
  });

  it('429 secondary rate limit waits Retry-After (docs: exceeding-the-rate-limit)', async () => {
    vendor.answer({
      status: 429,
      headers: { 'retry-after': '60' },
      body: { message: 'You have exceeded a secondary rate limit.', documentation_url: docs },
    });
    expectEnvelope(
      await thrownBy(getRepo),
      { class: 'rate_limit', code: '429', retry_after: 60 },
      ALL_SECRETS,
    );
  });

  it('401 Bad credentials is authentication (docs: rest/authentication)', async () => {
    vendor.answer({ status: 401, body: { message: 'Bad credentials', documentation_url: docs } });
    expectEnvelope(
      await thrownBy(getRepo),
      { class: 'authentication', code: '401', source: 'http' },
      ALL_SECRETS,
    );
  });

  it('404 Not Found is permanent (docs: rest/overview/troubleshooting)', async () => {
    vendor.answer({ status: 404, body: { message: 'Not Found', documentation_url: docs } });
    expectEnvelope(await thrownBy(getRepo), { class: 'permanent', code: '404' }, ALL_SECRETS);
  });

  it('422 Validation Failed keeps the status: field-level codes name a field (docs: rest/overview/resources-in-the-rest-api#client-errors)', async () => {
    vendor.answer({
      status: 422,
      body: {
        message: 'Validation Failed',
        errors: [{ resource: 'Issue', field: 'title', code: 'missing_field' }],
        documentation_url: docs,
      },
    });
    const err = await thrownBy(() => rest().rest.issues.create({ owner: 'o', repo: 'r', title: '' }));
    expectEnvelope(err, { class: 'validation', code: '422' }, ALL_SECRETS);
  });
});

describe('Octokit GraphQL errors', () => {
  it('RATE_LIMITED under a 200 with the reset in headers: rate limit, the reset read (docs: graphql rate limits)', async () => {
    const reset = resetIn(300);
    vendor.answer({
      status: 200,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset.header },
      body: {
        data: null,
        errors: [{ type: 'RATE_LIMITED', message: 'API rate limit exceeded for user ID 1.' }],
      },
    });
    const err = await thrownBy(() => gql()('query { viewer { login } }'));
    expectEnvelope(err, { class: 'rate_limit', code: 'RATE_LIMITED', retry_after: reset.range }, ALL_SECRETS);
  });

  it('NOT_FOUND is permanent (GitHub GraphQL errors[].type)', async () => {
    vendor.answer({
      status: 200,
      body: {
        data: { repository: null },
        errors: [
          {
            type: 'NOT_FOUND',
            path: ['repository'],
            message: "Could not resolve to a Repository with the name 'o/r'.",
          },
        ],
      },
    });
    const err = await thrownBy(() => gql()('query { repository(owner:"o", name:"r") { id } }'));
    expectEnvelope(err, { class: 'permanent', code: 'NOT_FOUND' }, ALL_SECRETS);
  });

  it('an HTTP 401 from the GraphQL endpoint is authentication (RequestError)', async () => {
    vendor.answer({ status: 401, body: { message: 'Bad credentials', documentation_url: docs } });
    const err = await thrownBy(() => gql()('query { viewer { login } }'));
    expectEnvelope(err, { class: 'authentication', code: '401' }, ALL_SECRETS);
  });
});

import { GraphQLClient } from 'graphql-request';
import { describe, it } from 'vitest';
import { ALL_SECRETS, closedPort, expectEnvelope, PLANTED, thrownBy, useFakeVendor } from './fake-vendor.js';

/**
 * graphql-request against a fake GraphQL server. Its ClientError keeps the GraphQL result
 * (`errors`, `data`, `extensions`) beside `status` and `headers` in `response`, and puts the
 * request (variables included) into its message (node_modules/graphql-request/build/legacy/classes/ClientError.js).
 * Codes: Apollo Server's built-in codes (https://www.apollographql.com/docs/apollo-server/data/errors#built-in-error-codes),
 * Shopify's THROTTLED with the cost extension (https://shopify.dev/docs/api/usage/rate-limits#graphql-admin-api-rate-limits).
 */

const vendor = useFakeVendor();

const client = (url = `${vendor.url}/graphql`) =>
  new GraphQLClient(url, { headers: { authorization: `Bearer ${PLANTED.bearer}` } });
const login = (c = client()) =>
  c.request(
    'mutation Login($user: String!, $password: String!) { login(user: $user, password: $password) { id } }',
    {
      user: 'a',
      password: PLANTED.password,
    },
  );
const gqlError = (code: string, message: string, extra: Record<string, unknown> = {}) => ({
  data: null,
  errors: [{ message, extensions: { code, ...extra } }],
});

describe('graphql-request errors', () => {
  it('UNAUTHENTICATED under a 200 is authentication (Apollo built-in codes)', async () => {
    vendor.answer({ status: 200, body: gqlError('UNAUTHENTICATED', 'You must be logged in') });
    expectEnvelope(
      await thrownBy(() => login()),
      { class: 'authentication', code: 'UNAUTHENTICATED' },
      ALL_SECRETS,
    );
  });

  it('BAD_USER_INPUT under a 200 is validation; the password in the request is not echoed (Apollo built-in codes)', async () => {
    vendor.answer({ status: 200, body: gqlError('BAD_USER_INPUT', 'Invalid argument value') });
    expectEnvelope(
      await thrownBy(() => login()),
      { class: 'validation', code: 'BAD_USER_INPUT' },
      ALL_SECRETS,
    );
  });

  it('RATE_LIMITED with Retry-After is a rate limit with the wait (Apollo custom codes; RFC 9110 Retry-After)', async () => {
    vendor.answer({
      status: 200,
      headers: { 'retry-after': '30' },
      body: gqlError('RATE_LIMITED', 'Too many requests'),
    });
    expectEnvelope(
      await thrownBy(() => login()),
      { class: 'rate_limit', code: 'RATE_LIMITED', retry_after: 30 },
      ALL_SECRETS,
    );
  });

  it('Shopify THROTTLED: the wait is the missing points over the restore rate (Shopify rate-limits)', async () => {
    vendor.answer({
      status: 200,
      body: {
        errors: [
          {
            message: 'Throttled',
            extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' },
          },
        ],
        extensions: {
          cost: {
            requestedQueryCost: 1000,
            actualQueryCost: null,
            throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 100, restoreRate: 50 },
          },
        },
      },
    });
    expectEnvelope(
      await thrownBy(() => login()),
      { class: 'rate_limit', code: 'THROTTLED', retry_after: 18 },
      ALL_SECRETS,
    );
  });

  it('HTTP 400 GRAPHQL_VALIDATION_FAILED is validation (Apollo built-in codes)', async () => {
    vendor.answer({
      status: 400,
      body: gqlError('GRAPHQL_VALIDATION_FAILED', 'Cannot query field "x" on type "Query".'),
    });
    expectEnvelope(
      await thrownBy(() => login()),
      { class: 'validation', code: 'GRAPHQL_VALIDATION_FAILED' },
      ALL_SECRETS,
    );
  });

  it('INTERNAL_SERVER_ERROR is transient (Apollo built-in codes)', async () => {
    vendor.answer({ status: 200, body: gqlError('INTERNAL_SERVER_ERROR', 'Unexpected error') });
    expectEnvelope(
      await thrownBy(() => login()),
      { class: 'transient', code: 'INTERNAL_SERVER_ERROR' },
      ALL_SECRETS,
    );
  });

  it('HTTP 503 without a GraphQL body is transient, code the status (graphql-request ClientError)', async () => {
    vendor.answer({ status: 503, headers: { 'content-type': 'text/plain' }, body: 'upstream unavailable' });
    expectEnvelope(await thrownBy(() => login()), { class: 'transient', code: '503' }, ALL_SECRETS);
  });

  it('a refused connection is ECONNREFUSED (fetch failed cause)', async () => {
    const port = await closedPort();
    expectEnvelope(
      await thrownBy(() => login(client(`http://127.0.0.1:${port}/graphql`))),
      { class: 'transient', code: 'ECONNREFUSED' },
      ALL_SECRETS,
    );
  });
});

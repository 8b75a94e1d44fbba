import {
  createDefaultHttpClient,
  createEmptyPipeline,
  createHttpHeaders,
  createPipelineRequest,
  RestError,
} from '@azure/core-rest-pipeline';
import { QueueClient, StorageSharedKeyCredential } from '@azure/storage-queue';
import { describe, it } from 'vitest';
import { ALL_SECRETS, closedPort, expectEnvelope, PLANTED, thrownBy, useFakeVendor } from './fake-vendor.js';

/**
 * Azure: @azure/core-rest-pipeline (generated clients turn a failed response into a RestError as
 * @azure/core-client's deserializationPolicy does: `statusCode`, `code` = the body's error.code,
 * `response` with `parsedBody`/`bodyAsText` and headers of an HttpHeaders class with toJSON,
 * node_modules/@azure/core-client/dist/commonjs/deserializationPolicy.js) and a data-plane client,
 * @azure/storage-queue (error code in `x-ms-error-code` and the XML body,
 * https://learn.microsoft.com/rest/api/storageservices/queue-service-error-codes). ARM codes:
 * https://learn.microsoft.com/azure/azure-resource-manager/troubleshooting/common-deployment-errors.
 */

const vendor = useFakeVendor();

const queue = () =>
  new QueueClient(
    `${vendor.url}/devstoreaccount1/orders`,
    new StorageSharedKeyCredential('devstoreaccount1', PLANTED.azureKey),
    {
      retryOptions: { maxTries: 1 },
    },
  );

function storageError(status: number, code: string, message: string, headers: Record<string, string> = {}) {
  vendor.answer({
    status,
    headers: {
      'content-type': 'application/xml',
      'x-ms-error-code': code,
      'x-ms-request-id': 'r1',
      ...headers,
    },
    body: `<?xml version="1.0" encoding="utf-8"?><Error><Code>${code}</Code><Message>${message}\nRequestId:r1</Message></Error>`,
  });
}

/** What a generated client does with a failed response (core-client deserializationPolicy handleErrorResponse). */
async function pipelineCall(url = `${vendor.url}/subscriptions/s/resourceGroups/g`): Promise<never> {
  const request = createPipelineRequest({
    url,
    method: 'PUT',
    headers: createHttpHeaders({ authorization: `Bearer ${PLANTED.bearer}` }),
    body: JSON.stringify({ password: PLANTED.password }),
    allowInsecureConnection: true,
  });
  const response = await createEmptyPipeline().sendRequest(createDefaultHttpClient(), request);
  const parsedBody = response.bodyAsText ? JSON.parse(response.bodyAsText) : undefined;
  const error = new RestError(response.bodyAsText ?? '', {
    statusCode: response.status,
    request,
    response: { ...response, parsedBody } as never,
  });
  error.code = parsedBody?.error?.code;
  throw error;
}

describe('@azure/storage-queue', () => {
  it('404 QueueNotFound is permanent with the storage code (queue-service-error-codes)', async () => {
    storageError(404, 'QueueNotFound', 'The specified queue does not exist.');
    expectEnvelope(
      await thrownBy(() => queue().sendMessage('hi')),
      { class: 'permanent', code: 'QueueNotFound', source: 'sdk' },
      ALL_SECRETS,
    );
  });

  it('409 QueueBeingDeleted: the queue is being deleted, retry later (queue-service-error-codes)', async () => {
    storageError(409, 'QueueBeingDeleted', 'The specified queue is being deleted.');
    expectEnvelope(
      await thrownBy(() => queue().create()),
      { class: 'transient', code: 'QueueBeingDeleted' },
      ALL_SECRETS,
    );
  });

  it('503 ServerBusy with Retry-After is a rate limit with the wait (common-rest-api-error-codes)', async () => {
    storageError(503, 'ServerBusy', 'Ingress is over the account limit.', { 'retry-after': '5' });
    expectEnvelope(
      await thrownBy(() => queue().sendMessage('hi')),
      { class: 'rate_limit', code: 'ServerBusy', retry_after: 5 },
      ALL_SECRETS,
    );
  });

  it('403 AuthenticationFailed is authentication (common-rest-api-error-codes)', async () => {
    storageError(403, 'AuthenticationFailed', 'Server failed to authenticate the request.');
    expectEnvelope(
      await thrownBy(() => queue().sendMessage('hi')),
      { class: 'authentication', code: 'AuthenticationFailed' },
      ALL_SECRETS,
    );
  });
});

describe('@azure/core-rest-pipeline', () => {
  it('409 AnotherOperationInProgress: wait for the running operation, then retry (ARM common-deployment-errors)', async () => {
    vendor.answer({
      status: 409,
      body: {
        error: {
          code: 'AnotherOperationInProgress',
          message: 'Operation is not allowed because another operation is in progress.',
        },
      },
    });
    expectEnvelope(
      await thrownBy(() => pipelineCall()),
      { class: 'transient', code: 'AnotherOperationInProgress' },
      ALL_SECRETS,
    );
  });

  it('429 with x-ms-retry-after-ms waits it; TooManyRequests restates the status (ARM request-limits-and-throttling)', async () => {
    vendor.answer({
      status: 429,
      headers: { 'x-ms-retry-after-ms': '2500', 'x-ms-ratelimit-remaining-subscription-writes': '0' },
      body: { error: { code: 'TooManyRequests', message: 'Too many requests' } },
    });
    expectEnvelope(
      await thrownBy(() => pipelineCall()),
      { class: 'rate_limit', code: '429', retry_after: 2.5 },
      ALL_SECRETS,
    );
  });

  it('400 InvalidTemplate is validation (ARM common-deployment-errors)', async () => {
    vendor.answer({
      status: 400,
      body: { error: { code: 'InvalidTemplate', message: 'Deployment template validation failed' } },
    });
    expectEnvelope(
      await thrownBy(() => pipelineCall()),
      { class: 'validation', code: 'InvalidTemplate' },
      ALL_SECRETS,
    );
  });

  it('a refused connection is ECONNREFUSED (nodeHttpClient RestError code from the socket)', async () => {
    const port = await closedPort();
    expectEnvelope(
      await thrownBy(() => pipelineCall(`http://127.0.0.1:${port}/x`)),
      { class: 'transient', code: 'ECONNREFUSED' },
      ALL_SECRETS,
    );
  });
});

import type { HttpCase } from '../corpus-case.js';

const AIP193 =
  'Google AIP-193 errors, https://google.aip.dev/193 (error.status + details[] ErrorInfo/RetryInfo)';
const DRIVE = 'Google Drive API docs, https://developers.google.com/drive/api/guides/handle-errors';
const ARM =
  'Azure Resource Manager docs, https://learn.microsoft.com/azure/azure-resource-manager/management/request-limits-and-throttling';
const AZ_CORE =
  '@azure/core-rest-pipeline src/retryStrategies/throttlingRetryStrategy.ts (reads retry-after-ms, x-ms-retry-after-ms, Retry-After)';
const CF =
  'Cloudflare docs, https://developers.cloudflare.com/support/troubleshooting/http-status-codes/cloudflare-5xx-errors/';

const cfHtml = (code: number, title: string): string =>
  `<!DOCTYPE html><html><head><title>example.com | ${code}: ${title}</title></head><body><div id="cf-error-details"><h1>${title}</h1><span>Error code ${code}</span><p>Ray ID: 8a1b2c3d4e5f6789</p></div></body></html>`;

/** Google APIs, Azure, Cloudflare. */
export const googleAzureCases: HttpCase[] = [
  {
    id: 'google-429-resource-exhausted',
    origin: `${AIP193}; Sheets API quota error`,
    input: {
      status: 429,
      headers: { 'content-type': 'application/json; charset=UTF-8', vary: 'Origin' },
      body: {
        error: {
          code: 429,
          message:
            "Quota exceeded for quota metric 'Read requests' and limit 'Read requests per minute per user' of service 'sheets.googleapis.com' for consumer 'project_number:123456789'.",
          status: 'RESOURCE_EXHAUSTED',
          details: [
            {
              '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
              reason: 'RATE_LIMIT_EXCEEDED',
              domain: 'googleapis.com',
              metadata: { quota_limit: 'ReadRequestsPerMinutePerUser', service: 'sheets.googleapis.com' },
            },
          ],
        },
      },
    },
    // The ErrorInfo reason is the most specific stable code Google sends (issue #10's code rule).
    expected: { class: 'rate_limit', code: 'RATE_LIMIT_EXCEEDED', retryable: true, retry_after: null },
  },
  {
    id: 'google-gemini-429-retry-info',
    origin: `${AIP193} (google.rpc.RetryInfo.retryDelay "37s"); Gemini API https://ai.google.dev/gemini-api/docs/troubleshooting`,
    note: 'RetryInfo.retryDelay is the server telling the client exactly how long to wait (AIP-194).',
    input: {
      status: 429,
      headers: { 'content-type': 'application/json; charset=UTF-8' },
      body: {
        error: {
          code: 429,
          message: 'You exceeded your current quota, please check your plan and billing details.',
          status: 'RESOURCE_EXHAUSTED',
          details: [
            {
              '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
              violations: [
                { quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests' },
              ],
            },
            { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '37s' },
          ],
        },
      },
    },
    expected: { class: 'rate_limit', retryable: true, retry_after: 37 },
  },
  {
    id: 'google-drive-403-user-rate-limit',
    origin: `${DRIVE}#resolve_a_403_error_user_rate_limit_exceeded (403 with reason userRateLimitExceeded)`,
    input: {
      status: 403,
      headers: { 'content-type': 'application/json; charset=UTF-8' },
      body: {
        error: {
          errors: [
            { domain: 'usageLimits', reason: 'userRateLimitExceeded', message: 'User Rate Limit Exceeded' },
          ],
          code: 403,
          message: 'User Rate Limit Exceeded',
        },
      },
    },
    expected: { class: 'rate_limit', retryable: true, retry_after: null },
  },
  {
    id: 'google-drive-403-rate-limit-exceeded',
    origin: `${DRIVE}#resolve_a_403_error_rate_limit_exceeded`,
    input: {
      status: 403,
      headers: {},
      body: '{"error":{"errors":[{"domain":"usageLimits","message":"Rate Limit Exceeded","reason":"rateLimitExceeded"}],"code":403,"message":"Rate Limit Exceeded"}}',
    },
    expected: { class: 'rate_limit', retryable: true, retry_after: null },
  },
  {
    id: 'google-drive-403-insufficient-permissions',
    origin: `${DRIVE}#resolve_a_403_error_insufficient_permissions`,
    input: {
      status: 403,
      headers: {},
      body: {
        error: {
          errors: [
            {
              domain: 'global',
              reason: 'insufficientFilePermissions',
              message: 'The user does not have sufficient permissions for file {fileId}.',
            },
          ],
          code: 403,
          message: 'The user does not have sufficient permissions for file {fileId}.',
        },
      },
    },
    expected: { class: 'authentication', retryable: false, retry_after: null },
  },
  {
    id: 'google-401-unauthenticated',
    origin: AIP193,
    input: {
      status: 401,
      headers: { 'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"' },
      body: {
        error: {
          code: 401,
          message:
            'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
          status: 'UNAUTHENTICATED',
        },
      },
    },
    expected: { class: 'authentication', code: '401', retryable: false, retry_after: null },
  },
  {
    id: 'google-400-invalid-argument',
    origin: AIP193,
    input: {
      status: 400,
      headers: {},
      body: {
        error: {
          code: 400,
          message:
            "Invalid value at 'requests[0].update_cells.rows[0]' (type.googleapis.com/google.apps.sheets.v4.RowData)",
          status: 'INVALID_ARGUMENT',
          details: [
            {
              '@type': 'type.googleapis.com/google.rpc.BadRequest',
              fieldViolations: [{ field: 'requests[0]' }],
            },
          ],
        },
      },
    },
    expected: { class: 'validation', retryable: false, retry_after: null },
  },
  {
    id: 'google-503-unavailable',
    origin: AIP193,
    input: {
      status: 503,
      headers: {},
      body: { error: { code: 503, message: 'The service is currently unavailable.', status: 'UNAVAILABLE' } },
    },
    expected: { class: 'transient', code: '503', retryable: true, retry_after: null },
  },
  {
    id: 'google-firestore-409-aborted-contention',
    origin: `${AIP193}; Firestore https://cloud.google.com/firestore/docs/understand-error-codes (ABORTED: retry the transaction)`,
    note: 'HTTP 409 maps to permanent, but ABORTED is the documented "retry the transaction" status: transient.',
    input: {
      status: 409,
      headers: {},
      body: {
        error: {
          code: 409,
          message: 'Too much contention on these documents. Please try again.',
          status: 'ABORTED',
        },
      },
    },
    expected: { class: 'transient', retryable: true, retry_after: null },
  },
  {
    id: 'azure-arm-429-too-many-requests',
    origin: `${ARM} (429 + Retry-After seconds)`,
    input: {
      status: 429,
      headers: {
        'Retry-After': '17',
        'x-ms-ratelimit-remaining-subscription-reads': '0',
        'x-ms-request-id': '5b1f0c8e-1b2c',
        'x-ms-correlation-request-id': '7e2a',
      },
      body: {
        error: {
          code: 'TooManyRequests',
          message:
            "The request is being throttled as the limit has been reached for operation type - 'Read_ObservationWindow_00:05:00'.",
        },
      },
    },
    expected: { class: 'rate_limit', code: '429', retryable: true, retry_after: 17 },
  },
  {
    id: 'azure-openai-429-retry-after-ms',
    origin: `Azure OpenAI quota docs, https://learn.microsoft.com/azure/ai-services/openai/quotas-limits; ${AZ_CORE}`,
    input: {
      status: 429,
      headers: {
        'retry-after-ms': '7000',
        'retry-after': '7',
        'x-ratelimit-remaining-tokens': '0',
        'apim-request-id': 'e9c1',
      },
      body: {
        error: {
          code: '429',
          message:
            'Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2024-02-01 have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after 7 seconds.',
        },
      },
    },
    expected: { class: 'rate_limit', retryable: true, retry_after: 7 },
  },
  {
    id: 'azure-cosmos-429-x-ms-retry-after-ms',
    origin: `Cosmos DB docs, https://learn.microsoft.com/azure/cosmos-db/nosql/troubleshoot-request-rate-too-large; ${AZ_CORE}`,
    note: 'Cosmos sends only x-ms-retry-after-ms; Azure core treats it like retry-after-ms.',
    input: {
      status: 429,
      headers: {
        'x-ms-retry-after-ms': '1500',
        'x-ms-substatus': '3200',
        'x-ms-activity-id': 'a1b2',
        'x-ms-request-charge': '0.38',
      },
      body: {
        code: 'TooManyRequests',
        message:
          'Message: {"Errors":["Request rate is large. More Request Units may be needed, so no changes were made. Please try this request again later."]}',
      },
    },
    expected: { class: 'rate_limit', retryable: true, retry_after: 1.5 },
  },
  {
    id: 'azure-storage-503-server-busy',
    origin:
      'Azure Storage docs, https://learn.microsoft.com/rest/api/storageservices/common-rest-api-error-codes (503 ServerBusy: account throttled)',
    note: 'Storage reports scalability-target throttling as 503 ServerBusy; rate_limit (transient is also defensible).',
    input: {
      status: 503,
      headers: {
        'x-ms-error-code': 'ServerBusy',
        'x-ms-request-id': '9c1e',
        'content-type': 'application/xml',
      },
      body: '\uFEFF<?xml version="1.0" encoding="utf-8"?><Error><Code>ServerBusy</Code><Message>Ingress is over the account limit.\nRequestId:9c1e\nTime:2026-11-29T15:00:00.0000000Z</Message></Error>',
    },
    expected: { class: 'rate_limit', code: 'ServerBusy', retryable: true, retry_after: null },
  },
  {
    id: 'azure-401-invalid-authentication-token',
    origin:
      'Azure REST API docs, https://learn.microsoft.com/rest/api/azure/#response (InvalidAuthenticationToken)',
    input: {
      status: 401,
      headers: {
        'www-authenticate':
          'Bearer authorization_uri="https://login.windows.net/tenant", error="invalid_token"',
      },
      body: { error: { code: 'InvalidAuthenticationToken', message: 'The access token is invalid.' } },
    },
    expected: { class: 'authentication', retryable: false, retry_after: null },
  },
  {
    id: 'azure-403-authorization-failed',
    origin:
      'Azure RBAC docs, https://learn.microsoft.com/azure/role-based-access-control/troubleshooting (AuthorizationFailed)',
    input: {
      status: 403,
      headers: {},
      body: {
        error: {
          code: 'AuthorizationFailed',
          message:
            "The client 'a1b2' with object id 'a1b2' does not have authorization to perform action 'Microsoft.Compute/virtualMachines/read' over scope '/subscriptions/0000'.",
        },
      },
    },
    expected: { class: 'authentication', retryable: false, retry_after: null },
  },
  {
    id: 'cloudflare-520-unknown-error',
    origin: `${CF}#error-520-web-server-returns-an-unknown-error`,
    note: 'Not in the 500/502/503/504 list, but every 52x below 525 is an origin availability failure: transient.',
    input: {
      status: 520,
      headers: { server: 'cloudflare', 'cf-ray': '8a1b2c3d4e5f6789-FRA', 'content-type': 'text/html' },
      body: cfHtml(520, 'Web server is returning an unknown error'),
    },
    expected: { class: 'transient', code: '520', retryable: true, retry_after: null },
  },
  {
    id: 'cloudflare-521-web-server-down',
    origin: `${CF}#error-521-web-server-is-down`,
    input: { status: 521, headers: { server: 'cloudflare' }, body: cfHtml(521, 'Web server is down') },
    expected: { class: 'transient', code: '521', retryable: true, retry_after: null },
  },
  {
    id: 'cloudflare-522-connection-timed-out',
    origin: `${CF}#error-522-connection-timed-out`,
    input: { status: 522, headers: { server: 'cloudflare' }, body: 'error code: 522' },
    expected: { class: 'transient', code: '522', retryable: true, retry_after: null },
  },
  {
    id: 'cloudflare-524-timeout',
    origin: `${CF}#error-524-a-timeout-occurred`,
    input: { status: 524, headers: { server: 'cloudflare' }, body: cfHtml(524, 'A timeout occurred') },
    expected: { class: 'transient', code: '524', retryable: true, retry_after: null },
  },
  {
    id: 'cloudflare-1015-rate-limited-problem-json',
    origin:
      'Cloudflare 1xxx structured errors, https://developers.cloudflare.com/support/troubleshooting/http-status-codes/cloudflare-1xxx-errors/error-1015/ (problem+json with retryable/retry_after)',
    input: {
      status: 429,
      headers: { 'content-type': 'application/problem+json', server: 'cloudflare', 'cf-ray': '8a1b-LHR' },
      body: {
        type: 'https://developers.cloudflare.com/support/troubleshooting/http-status-codes/cloudflare-1xxx-errors/error-1015/',
        title: 'Error 1015: You are being rate limited',
        status: 429,
        detail: 'The site owner has set a rate limit that your requests have exceeded.',
        error_code: 1015,
        error_name: 'rate_limited',
        error_category: 'rate_limit',
        retryable: true,
        retry_after: 30,
        owner_action_required: false,
      },
    },
    expected: { class: 'rate_limit', retryable: true, retry_after: 30 },
  },
  {
    id: 'cloudflare-api-403-authentication-error',
    origin:
      'Cloudflare API v4 docs, https://developers.cloudflare.com/fundamentals/api/troubleshooting/ (success:false, errors[].code 10000)',
    input: {
      status: 403,
      headers: { 'cf-ray': '8a1b-AMS' },
      body: {
        success: false,
        errors: [{ code: 10000, message: 'Authentication error' }],
        messages: [],
        result: null,
      },
    },
    expected: { class: 'authentication', retryable: false, retry_after: null },
  },
];

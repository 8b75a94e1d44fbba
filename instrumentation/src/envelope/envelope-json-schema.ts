import { RETRY_AFTER_SCHEMA_RULE } from './allowed-retry-after.js';
import { MAX_MESSAGE_CHARS } from './create-envelope.js';
import { CLASS_ACTIONS } from './error-classes.js';

/**
 * JSON Schema (draft 2020-12) of the envelope, for tool definitions, agent frameworks and
 * validators. Each class's description states the caller's action, so a model reading the
 * schema learns the policy along with the shape.
 */

const CORE_PROPERTIES = {
  class: {
    description: 'What the caller should do next; the policy follows from the class.',
    oneOf: CLASS_ACTIONS,
  },
  source: {
    type: 'string',
    minLength: 1,
    description: 'Low-cardinality kind of tool that failed: http, db, sdk, rpc, network.',
    examples: ['http', 'db', 'sdk', 'rpc', 'network'],
  },
  code: {
    type: 'string',
    description: 'Most specific stable code: HTTP status, SQLSTATE, vendor error number or name.',
    examples: ['429', '40001', '1213', 'ThrottlingException'],
  },
  message: {
    type: 'string',
    maxLength: MAX_MESSAGE_CHARS,
    description: 'Human-readable text, redacted and bounded.',
  },
  retryable: {
    type: 'boolean',
    description:
      'Whether repeating the identical call can succeed; derived by the adapter, never by the caller.',
  },
  retry_after: {
    type: ['number', 'null'],
    minimum: 0,
    description: 'Seconds to wait before retrying; a number only when retryable is true, otherwise null.',
  },
  correlation_id: {
    type: 'string',
    description: 'The same id on every span of one request, across services; empty when unknown.',
  },
} as const;

export const envelopeJsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://faultline.dev/schemas/envelope.json',
  title: 'Faultline error envelope',
  description: 'One normalized failure of an outbound call (HTTP, database, vendor SDK, RPC).',
  type: 'object',
  required: ['class', 'source', 'code', 'message', 'retryable', 'retry_after', 'correlation_id', 'raw'],
  additionalProperties: false,
  properties: {
    ...CORE_PROPERTIES,
    raw: {
      description:
        'Source detail for offline inspection (status, headers subset, body, driver fields): redacted, depth- and size-capped JSON. Dropped for models.',
    },
  },
  ...RETRY_AFTER_SCHEMA_RULE,
} as const;

/** The seven-field form returned by toModelEnvelope. */
export const modelEnvelopeJsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://faultline.dev/schemas/model-envelope.json',
  title: 'Faultline error envelope (model form)',
  description: 'The error envelope without raw, for a model or agent loop.',
  type: 'object',
  required: ['class', 'source', 'code', 'message', 'retryable', 'retry_after', 'correlation_id'],
  additionalProperties: false,
  properties: CORE_PROPERTIES,
  ...RETRY_AFTER_SCHEMA_RULE,
} as const;

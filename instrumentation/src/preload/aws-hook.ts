import type { AwsSdkInstrumentationConfig } from '@opentelemetry/instrumentation-aws-sdk';
import { ATTR_CORRELATION_ID } from '../attributes.js';
import { classifyError } from '../error/classify-error.js';
import { safely } from './safe.js';
import { attributesOf, setEnvelope } from './span-envelope.js';

/** AWS SDK v3 hands the typed service exception (with `$metadata`) to `exceptionHook` only. */
export function awsHooks(): Pick<AwsSdkInstrumentationConfig, 'exceptionHook'> {
  return {
    exceptionHook(span, _request, err: unknown) {
      safely('aws exceptionHook', () => {
        const correlationId = String(attributesOf(span)[ATTR_CORRELATION_ID] ?? '');
        setEnvelope(span, classifyError(err, { source: 'sdk', correlationId }));
      });
    },
  };
}

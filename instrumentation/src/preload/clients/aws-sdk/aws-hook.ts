import type { Span } from '@opentelemetry/api';
import type { AwsSdkInstrumentationConfig } from '@opentelemetry/instrumentation-aws-sdk';
import { ATTR_ATTEMPTS } from '../../../envelope/attribute-names.js';
import { classifyError } from '../../../error/classify-error.js';
import { correlationIdOfSpan } from '../../pipeline/correlation.js';
import { setEnvelope } from '../../pipeline/span-envelope.js';
import { safely } from '../../shared/safe.js';

/**
 * AWS SDK v3 hands the typed service exception (with `$metadata`) to `exceptionHook` only. Both
 * hooks record how many attempts the SDK's own retry loop made (`$metadata.attempts`), the
 * operation span's faultline.attempts.
 */
export function awsHooks(): Pick<AwsSdkInstrumentationConfig, 'exceptionHook' | 'responseHook'> {
  return {
    responseHook(span, { response }) {
      safely('aws responseHook', () =>
        recordAttempts(span, (response.data as WithMetadata | undefined)?.$metadata),
      );
    },
    exceptionHook(span, _request, err: unknown) {
      safely('aws exceptionHook', () => {
        recordAttempts(span, (err as WithMetadata | undefined)?.$metadata);
        const correlationId = correlationIdOfSpan(span);
        setEnvelope(span, classifyError(err, { source: 'sdk', correlationId }));
      });
    },
  };
}

interface WithMetadata {
  $metadata?: { attempts?: unknown };
}

function recordAttempts(span: Span, metadata: WithMetadata['$metadata']): void {
  const attempts = metadata?.attempts;
  if (typeof attempts === 'number' && Number.isInteger(attempts) && attempts > 1) {
    span.setAttribute(ATTR_ATTEMPTS, attempts);
  }
}

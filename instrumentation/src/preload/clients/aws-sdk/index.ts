import type { Instrumentation } from '@opentelemetry/instrumentation';
import { AwsInstrumentation } from '@opentelemetry/instrumentation-aws-sdk';
import { awsHooks } from './aws-hook.js';

export { awsHooks };

/** `aws-sdk`: AWS SDK v3 spans, classified from the SDK's exception and response hooks. */
export function awsSdkInstrumentation(): Instrumentation {
  return new AwsInstrumentation(awsHooks());
}

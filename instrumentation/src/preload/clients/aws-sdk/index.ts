/** `aws-sdk`: AWS SDK v3 spans, classified from the SDK's exception and response hooks. */
export { awsHooks } from './aws-hook.js';

import { PLANTED } from './fake-vendor.js';

/**
 * The configuration every AWS SDK v3 client in these tests shares: the fake endpoint, planted
 * credentials (the secret must never reach an envelope) and the SDK's own retries off.
 */
export function awsConfig(endpoint: string) {
  return {
    endpoint,
    region: 'us-east-1',
    maxAttempts: 1,
    credentials: { accessKeyId: 'AKIAIOSFODNN7PLANTED', secretAccessKey: PLANTED.awsSecret },
  };
}

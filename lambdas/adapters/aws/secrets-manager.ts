/**
 * Secrets Manager GetSecretValue (JSON 1.1 protocol) through our signed client: the one
 * Secrets Manager call a request makes (loading the signing keys on a container's first
 * token). The SDK client it replaces added ~45 ms to every signing route's cold start.
 */
import { jsonServiceError } from './errors';
import { Retrier } from './retry';
import type { AwsCredentials } from './sigv4';
import { AwsTransport } from './transport';

export interface SecretValue {
  readonly SecretString?: string;
  readonly VersionId?: string;
}

export function secretsManagerClient(region: string, credentials: () => AwsCredentials) {
  const transport = new AwsTransport({
    service: 'secretsmanager',
    region,
    endpoint: `https://secretsmanager.${region}.amazonaws.com`,
    credentials,
    connectTimeout: 1000,
    requestTimeout: 3000,
  });
  // The SDK's default attempt count for Secrets Manager.
  const retrier = new Retrier({ maxAttempts: 3 });
  return {
    getSecretValue(secretId: string): Promise<SecretValue> {
      const request = {
        method: 'POST' as const,
        path: '/',
        headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'secretsmanager.GetSecretValue' },
        body: JSON.stringify({ SecretId: secretId }),
      };
      return retrier.run(async () => {
        const reply = await transport.send(request);
        if (reply.status !== 200) throw jsonServiceError(reply.status, reply.body, reply.headers);
        return JSON.parse(reply.body) as SecretValue;
      });
    },
  };
}

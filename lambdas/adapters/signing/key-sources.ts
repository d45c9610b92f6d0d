import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { type AwsClientSettings, boundToInvocation, clientConfig } from '../aws/sdk-clients';
import { fileKeySource, type SigningKeySource } from './key-file';
import { parseKeySet } from './key-set';

/**
 * The signing routes' key set: Secrets Manager in AWS, the file locally. Only the routes that sign
 * import this module (and with it the Secrets Manager client); verifying routes read the public
 * keys (lambdas/wiring/verifier.ts).
 */

/** Read once per container and cached (lambdas/wiring/signing.ts); the SDK's three attempts, each bounded. */
export const secretsCallBounds = { maxAttempts: 3, connectionTimeout: 1000, requestTimeout: 3000 } as const;

export function secretsManagerKeySource(secretId: string, client: Pick<SecretsManagerClient, 'send'>): SigningKeySource {
  return async () => {
    const secret = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
    const set = parseKeySet(secret.SecretString);
    if (!set) throw new Error('the signing key secret holds no valid key set');
    return set;
  };
}

/** Picks the source from the variables the stack or the local server sets. */
export function keySourceFromEnv(env: Readonly<Record<string, string | undefined>>, settings: AwsClientSettings = {}): SigningKeySource {
  if (env.SIGNING_KEY_SECRET_ARN) {
    const client = boundToInvocation(new SecretsManagerClient(clientConfig(secretsCallBounds, settings)), settings);
    return secretsManagerKeySource(env.SIGNING_KEY_SECRET_ARN, client);
  }
  if (env.SIGNING_KEY_FILE) return fileKeySource(env.SIGNING_KEY_FILE);
  throw new Error('Set SIGNING_KEY_SECRET_ARN (AWS) or SIGNING_KEY_FILE (local) to sign tokens');
}

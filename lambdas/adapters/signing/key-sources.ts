import { readFile } from 'node:fs/promises';
import { secretsManagerClient } from '../aws/secrets-manager';
import { credentialsFromEnv } from '../aws/transport';
import { parseKeySet, type SigningKeySet } from './key-set';

/** Where the private key set comes from: Secrets Manager in AWS, a file for the local server. */
export type SigningKeySource = () => Promise<SigningKeySet>;

export function secretsManagerKeySource(secretId: string, client: ReturnType<typeof secretsManagerClient>): SigningKeySource {
  return async () => {
    const secret = await client.getSecretValue(secretId);
    const set = parseKeySet(secret.SecretString);
    if (!set) throw new Error('the signing key secret holds no valid key set');
    return set;
  };
}

export function fileKeySource(path: string): SigningKeySource {
  return async () => {
    const set = parseKeySet(await readFile(path, 'utf8'));
    if (!set) throw new Error(`${path} holds no valid key set`);
    return set;
  };
}

/** Picks the source from the variables the stack or the local server sets. */
export function keySourceFromEnv(env: Readonly<Record<string, string | undefined>>): SigningKeySource {
  if (env.SIGNING_KEY_SECRET_ARN) {
    const client = secretsManagerClient(env.AWS_REGION ?? 'us-east-1', () => credentialsFromEnv(env));
    return secretsManagerKeySource(env.SIGNING_KEY_SECRET_ARN, client);
  }
  if (env.SIGNING_KEY_FILE) return fileKeySource(env.SIGNING_KEY_FILE);
  throw new Error('Set SIGNING_KEY_SECRET_ARN (AWS) or SIGNING_KEY_FILE (local) to sign tokens');
}

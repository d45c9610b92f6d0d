import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { readFile } from 'node:fs/promises';
import { parseKeySet, type SigningKeySet } from './key-set';

/** Where the private key set comes from: Secrets Manager in AWS, a file for the local server. */
export type SigningKeySource = () => Promise<SigningKeySet>;

export function secretsManagerKeySource(secretId: string, client = new SecretsManagerClient({})): SigningKeySource {
  return async () => {
    const secret = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
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
  if (env.SIGNING_KEY_SECRET_ARN) return secretsManagerKeySource(env.SIGNING_KEY_SECRET_ARN);
  if (env.SIGNING_KEY_FILE) return fileKeySource(env.SIGNING_KEY_FILE);
  throw new Error('Set SIGNING_KEY_SECRET_ARN (AWS) or SIGNING_KEY_FILE (local) to sign tokens');
}

/**
 * Where the device-cookie key comes from (behaviour PWFAIL-6): in AWS a Secrets Manager secret
 * the construct creates with a generated value (DEVICE_COOKIE_KEY_SECRET_ARN); locally
 * `<DATA_DIR>/device-cookie-keys.json` (DEVICE_COOKIE_KEY_FILE), written at the first start.
 * Both hold `{ "current": "<secret>", "previous": ["<older secret>", …] }`: `current` seals new
 * cookies, every key opens the cookies it sealed, so a rotation moves `current` into `previous`.
 *
 * The Secrets Manager client is imported on the first sign-in that needs the key, not with the
 * module: the sign-in functions carry it for this one read per container (README "Cold start").
 */
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { deviceKeySet, type DeviceKeySet } from '../core/account/device-cookies';
import { type AwsClientSettings, boundToInvocation, clientConfig } from './aws/sdk-clients';

export type DeviceKeySource = () => Promise<DeviceKeySet>;

/**
 * As the signing key's read (adapters/signing/key-sources.ts, not imported here: it loads the
 * Secrets Manager client with it): once per container and cache period, three bounded attempts.
 */
const deviceKeyCallBounds = { maxAttempts: 3, connectionTimeout: 1000, requestTimeout: 3000 } as const;

/** The key set of a secret's or file's text; undefined unless `current` (and any `previous`) are strings of 32+ characters. */
export function parseDeviceKeys(text: string | undefined): DeviceKeySet | undefined {
  try {
    const value = JSON.parse(text ?? '') as { current?: unknown; previous?: unknown };
    const previous = value.previous ?? [];
    if (typeof value.current !== 'string' || !Array.isArray(previous) || previous.some((key) => typeof key !== 'string')) return undefined;
    return deviceKeySet(value.current, previous as string[]);
  } catch {
    return undefined;
  }
}

/** A new file's content: 256 random bits. */
export const generateDeviceKeys = (): { current: string } => ({ current: randomBytes(32).toString('base64url') });

export function fileDeviceKeySource(path: string): DeviceKeySource {
  return async () => {
    const keys = parseDeviceKeys(await readFile(path, 'utf8'));
    if (!keys) throw new Error(`${path} holds no valid device-cookie key`);
    return keys;
  };
}

export function secretsManagerDeviceKeySource(secretId: string, settings: AwsClientSettings = {}): DeviceKeySource {
  let client: Promise<{ secrets: Pick<SecretsManagerClient, 'send'>; module: typeof import('./aws/secret-read') }> | undefined;
  return async () => {
    const { secrets, module } = await (client ??= import('./aws/secret-read').then((module) => ({
      secrets: boundToInvocation(new module.SecretsManagerClient(clientConfig(deviceKeyCallBounds, settings)), settings),
      module,
    })));
    const secret = await secrets.send(new module.GetSecretValueCommand({ SecretId: secretId }));
    const keys = parseDeviceKeys(secret.SecretString);
    if (!keys) throw new Error('the device-cookie key secret holds no valid key');
    return keys;
  };
}

/** The source the stack or the local server configured; undefined when neither variable is set. */
export function deviceKeySourceFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  settings: AwsClientSettings = {},
): DeviceKeySource | undefined {
  if (env.DEVICE_COOKIE_KEY_SECRET_ARN) return secretsManagerDeviceKeySource(env.DEVICE_COOKIE_KEY_SECRET_ARN, settings);
  if (env.DEVICE_COOKIE_KEY_FILE) return fileDeviceKeySource(env.DEVICE_COOKIE_KEY_FILE);
  return undefined;
}

/**
 * The API-key exchange of a container: the key store, the signer and the verified-key cache (a
 * repeat exchange of a key already verified here skips Argon2id). Apart from api-keys.ts so the
 * admin routes, which share the store, do not bring the signer and its Secrets Manager client.
 */
import type { ExchangeDependencies, KeyBinding } from '../core/api-keys/ports';
import { VerifiedSecretCache } from '../core/verified-secret-cache';
import { getApiKeyStore } from './api-keys';
import { getContainer, perContainer } from './container';
import { getHasher, getTokenStore } from './repositories';
import { getSigner } from './signing';
import { getSite } from './site';
import { getStorage } from './storage';

const getKeyCache = /* @__PURE__ */ perContainer(() => new VerifiedSecretCache<KeyBinding>());

export async function getApiKeyExchange(): Promise<ExchangeDependencies> {
  const { config, clock, random, log } = getContainer();
  return {
    issuer: config.baseUrl,
    ...(config.dcr.environmentId !== undefined ? { dcrEnvironmentId: config.dcr.environmentId } : {}),
    signer: await getSigner(),
    clock,
    random,
    store: getApiKeyStore(),
    recordIssued: (issuance) => getTokenStore().recordIssued(issuance),
    hasher: getHasher(),
    secretCache: getKeyCache(),
    log,
    catalogNames: getStorage().catalogNames,
    mfaPolicy: () => getSite().tokenMfaPolicy(),
  };
}

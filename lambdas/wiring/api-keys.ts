/**
 * API keys of a container: the DynamoDB store and the verified-key cache (a repeat exchange
 * of a key already verified here skips Argon2id), wired to the exchange and the admin routes.
 */
import { DynamoApiKeyStore } from '../adapters/dynamodb/api-key-store';
import type { ApiKeyAdminDependencies, ExchangeDependencies, KeyBinding } from '../core/api-keys/ports';
import { newId } from '../core/ids';
import { VerifiedSecretCache } from '../core/verified-secret-cache';
import { getContainer, perContainer } from './container';
import { getClientRepository, getHasher, getTokenStore, getUsers } from './repositories';
import { getSigner } from './signing';
import { getStorage } from './storage';

export const getApiKeyStore = /* @__PURE__ */ perContainer((): DynamoApiKeyStore => {
  const { db, tables } = getStorage();
  const { random, clock } = getContainer();
  return new DynamoApiKeyStore(
    db,
    tables,
    () => newId('', random),
    () => Math.floor(clock.now() / 1000),
  );
});

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
  };
}

/** Reads go to the repositories directly (not the client cache): an admin sees its own writes. */
export function getApiKeyAdmin(): ApiKeyAdminDependencies {
  const { clock, random } = getContainer();
  return { keys: getApiKeyStore(), clients: getClientRepository(), users: getUsers(), hasher: getHasher(), clock, random };
}

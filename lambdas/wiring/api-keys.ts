/**
 * API keys of a container: the DynamoDB store, wired to the admin routes (and, in
 * api-key-exchange.ts, to the exchange).
 */
import { DynamoApiKeyStore } from '../adapters/dynamodb/api-key-store';
import type { ApiKeyAdminDependencies } from '../core/api-keys/ports';
import { newId } from '../core/ids';
import { getContainer, perContainer } from './container';
import { getClientRepository, getHasher, getUsers } from './repositories';
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

/** Reads go to the repositories directly (not the client cache): an admin sees its own writes. */
export function getApiKeyAdmin(): ApiKeyAdminDependencies {
  const { clock, random } = getContainer();
  return { keys: getApiKeyStore(), clients: getClientRepository(), users: getUsers(), hasher: getHasher(), clock, random };
}

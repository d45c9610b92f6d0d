/**
 * The repositories and secret checks of a container, one getter each so a handler bundles
 * only what it uses: repositories over DynamoDB, the hasher and the
 * verified-secret cache. Client records are read afresh (strongly consistent) on every
 * use, never from a per-container cache: once DELETE /api/admin/clients/{id} has returned,
 * no container anywhere may issue that client a token. What stays cached is what a deletion
 * cannot make unsafe: the Argon2id verdict for a presented secret (keyed by the stored hash)
 * and a metadata document's contents (stored with the client record).
 */
import { DynamoClientRepository } from '../adapters/dynamodb/client-repository';
import { DynamoEnvironmentRepository } from '../adapters/dynamodb/environment-repository';
import { DynamoSessionStore } from '../adapters/dynamodb/session-store';
import { DynamoTokenStore } from '../adapters/dynamodb/token-store';
import { DynamoUserRepository } from '../adapters/dynamodb/user-repository';
import { isMetadataDocumentUrl, resolveMetadataDocumentClient } from '../core/client-metadata-document';
import type { Client } from '../core/model';
import type { HashMethod } from '../config/settings';
import type { Hasher } from '../core/ports';
import type { SessionReaders } from '../http/session';
import { VerifiedSecretCache } from '../core/verified-secret-cache';
import { getContainer, perContainer } from './container';
import { getStorage } from './storage';

/**
 * argon2 is native and ships only with the functions whose route row says `hashes`; a
 * static import would make every other function using these services fail at load
 * ("No native build was found"). esbuild turns this import() into a lazy init in the bundle.
 */
function lazyHasher(method: HashMethod): Hasher {
  let loaded: Promise<Hasher> | undefined;
  const hasher = () => (loaded ??= import('../adapters/argon2-hasher').then((m) => m.createHasher(method)));
  return {
    hash: async (secret) => (await hasher()).hash(secret),
    verify: async (hash, secret) => (await hasher()).verify(hash, secret),
    verifyDummy: async (secret) => (await hasher()).verifyDummy(secret),
  };
}

/**
 * Client lookup: by id, or, with CLIENT_ID_METADATA_DOCUMENTS on, by the metadata document
 * an https client_id points at (fetched on first use, refreshed after its cache lifetime).
 */
function clientResolver(clientRepository: DynamoClientRepository): (clientId: string) => Promise<Client | undefined> {
  const { config, clock, log } = getContainer();
  return (clientId) => {
    if (!config.clientIdMetadataDocuments || !isMetadataDocumentUrl(clientId, config.localMode)) return clientRepository.get(clientId);
    return resolveMetadataDocumentClient(clientId, {
      stored: (url) => clientRepository.getMetadataDocumentClient(url),
      save: (client) => clientRepository.saveMetadataDocumentClient(client),
      fetch: async (url) => (await import('../adapters/metadata-document-fetcher')).fetchMetadataDocument(url, config.localMode),
      catalog: () => getStorage().scopes(),
      environmentId: config.dcr.environmentId!,
      nowEpoch: Math.floor(clock.now() / 1000),
      log,
    });
  };
}

const table = (name: 'main' | 'ephemeral') => getStorage().tables[name];

/** With the activity table: an admin change to a client is written with its audit entry (behaviour LOG-9). */
export const getClientRepository = /* @__PURE__ */ perContainer(
  () => new DynamoClientRepository(getStorage().db, table('main'), undefined, getStorage().tables.activity),
);
/** The client as stored now (strongly consistent), resolving Client ID Metadata Documents when enabled. */
export const getClientFinder = /* @__PURE__ */ perContainer(() => clientResolver(getClientRepository()));
export const findClient = (clientId: string): Promise<Client | undefined> => getClientFinder()(clientId);
/** With the activity table: an admin change to a user is written with its audit entry (behaviour LOG-9). */
export const getUsers = /* @__PURE__ */ perContainer(
  () => new DynamoUserRepository(getStorage().db, table('main'), getStorage().tables.activity),
);
export const getEnvironments = /* @__PURE__ */ perContainer(
  () => new DynamoEnvironmentRepository(getStorage().db, table('main'), getStorage().tables.activity),
);
export const getTokenStore = /* @__PURE__ */ perContainer(() => new DynamoTokenStore(getStorage().db, getStorage().tables));
export const getSessions = /* @__PURE__ */ perContainer(() => new DynamoSessionStore(getStorage().db, table('ephemeral')));
/** What using a session reads (lambdas/http/session.ts): the session, then its user strongly consistently (behaviour RESET-12). */
export const getSessionReaders = (): SessionReaders => ({ sessions: getSessions(), currentUser: (id) => getUsers().current(id) });
export const getHasher = /* @__PURE__ */ perContainer((): Hasher => lazyHasher(getContainer().config.hashMethod));
/** Client secrets verified here before (a repeat request skips Argon2id). */
export const getSecretCache = /* @__PURE__ */ perContainer(() => new VerifiedSecretCache());

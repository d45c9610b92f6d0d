/** What client authentication (token, introspection and revocation endpoints) reads, from this container. */
import type { ClientAuthDependencies } from '../core/client-auth/authenticate';
import { findClient, getHasher, getSecretCache } from './repositories';

export const getClientAuthDependencies = (): ClientAuthDependencies => ({ findClient, hasher: getHasher(), secretCache: getSecretCache() });

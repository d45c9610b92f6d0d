/** What client authentication (token, introspection and revocation endpoints) reads, from this container. */
import type { ClientAuthDependencies } from '../core/client-auth/authenticate';
import { endpointPaths } from '../core/paths';
import { getContainer } from './container';
import { getJwtAssertionVerifier } from './jwt-assertions';
import { findClient, getHasher, getSecretCache } from './repositories';
import { getSingleUseIds } from './single-use-ids';

/**
 * `endpointPath`: the endpoint being called, whose URL a private_key_jwt assertion may name as its
 * audience besides the issuer and the token endpoint (behaviour TOKEN-6; RFC 9126 2 for PAR).
 */
export const getClientAuthDependencies = (endpointPath?: string): ClientAuthDependencies => {
  const { baseUrl } = getContainer().config;
  const audiences = [baseUrl, `${baseUrl}${endpointPaths.token}`, ...(endpointPath ? [`${baseUrl}${endpointPath}`] : [])];
  return {
    findClient,
    hasher: getHasher(),
    secretCache: getSecretCache(),
    clock: getContainer().clock,
    assertions: { verifier: getJwtAssertionVerifier(), singleUseIds: getSingleUseIds(), audiences },
  };
};

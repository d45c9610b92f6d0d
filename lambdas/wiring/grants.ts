/** Wires the grants of lambdas/core/grants to this container's stores, signer, clock and randomness. */
import { DynamoFederatedUsers } from '../adapters/dynamodb/federated-users';
import type { GrantDependencies } from '../core/grants/grant';
import type { AssertionGrantPorts } from '../core/grants/ports';
import { getContainer, perContainer } from './container';
import { getJwtAssertionVerifier } from './jwt-assertions';
import { getClientRepository, getEnvironments, getTokenStore, getUsers } from './repositories';
import { getSigner } from './signing';
import { getSingleUseIds } from './single-use-ids';
import { getSite } from './site';
import { getStorage } from './storage';
import { getTrustedIssuerLookup } from './trusted-issuers';

/** The JWT-bearer grant's ports (behaviour JWTB-1): the verifier loads jose and the fetcher only when an assertion comes. */
const getAssertionGrantPorts = /* @__PURE__ */ perContainer(
  (): AssertionGrantPorts => ({
    trustedIssuers: getTrustedIssuerLookup(),
    verifier: getJwtAssertionVerifier(),
    singleUseIds: getSingleUseIds(),
    catalogNames: getStorage().catalogNames,
    federatedUsers: new DynamoFederatedUsers(getStorage().db, getStorage().tables.main, getUsers()),
  }),
);

export async function getGrantDependencies(): Promise<GrantDependencies> {
  const { config, clock, random, log } = getContainer();
  return {
    issuer: config.baseUrl,
    signer: await getSigner(),
    clock,
    random,
    store: getTokenStore(),
    // Strongly consistent: a code or refresh token of the old password must not pass (behaviour RESET-12).
    users: { get: (id) => getUsers().current(id) },
    environments: getEnvironments(),
    keepClient: async (clientId) => {
      try {
        await getClientRepository().markUsed(clientId);
      } catch (error) {
        log.warn('dynamic client expiry not cleared', { clientId, cause: error });
      }
    },
    mfaPolicy: () => getSite().tokenMfaPolicy(),
    assertionGrants: getAssertionGrantPorts(),
    ...(config.dcr.environmentId !== undefined ? { dcrEnvironmentId: config.dcr.environmentId } : {}),
    ...(config.signInsNotBefore !== undefined ? { signInsNotBefore: config.signInsNotBefore } : {}),
    refreshGraceSeconds: config.refreshGraceSeconds,
  };
}

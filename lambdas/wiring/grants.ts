/** Wires the grants of lambdas/core/grants to this container's stores, signer, clock and randomness. */
import type { GrantDependencies } from '../core/grants/grant';
import { getContainer } from './container';
import { getClientRepository, getEnvironments, getTokenStore, getUsers } from './repositories';
import { getSigner } from './signing';
import { getSite } from './site';

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
    ...(config.dcr.environmentId !== undefined ? { dcrEnvironmentId: config.dcr.environmentId } : {}),
    ...(config.signInsNotBefore !== undefined ? { signInsNotBefore: config.signInsNotBefore } : {}),
    refreshGraceSeconds: config.refreshGraceSeconds,
  };
}

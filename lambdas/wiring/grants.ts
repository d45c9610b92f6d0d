/** Wires the grants of lambdas/core/grants to this container's stores, signer, clock and randomness. */
import type { GrantDependencies } from '../core/grants/ports';
import { getContainer } from './container';
import { getOAuth } from './oauth';
import { getSigner } from './signing';

export async function getGrantDependencies(): Promise<GrantDependencies> {
  const { config, clock, random, log } = getContainer();
  const { tokens, users, environments, clientRepository } = getOAuth();
  return {
    issuer: config.baseUrl,
    signer: await getSigner(),
    clock,
    random,
    store: tokens,
    users,
    environments,
    keepClient: async (clientId) => {
      try {
        await clientRepository.markUsed(clientId);
      } catch (error) {
        log.warn('dynamic client expiry not cleared', { clientId, cause: error });
      }
    },
    ...(config.dcr.environmentId !== undefined ? { dcrEnvironmentId: config.dcr.environmentId } : {}),
  };
}

/** Wires the grants of lambdas/core/grants to this container's stores, signer, clock and randomness. */
import type { GrantDependencies } from '../core/grants/ports';
import { getRuntime } from './base';
import { getOAuth } from './oauth';
import { getSigner } from './signing';

export async function getGrantDependencies(): Promise<GrantDependencies> {
  const { config, clock, random } = getRuntime();
  const { tokens, users, environments } = getOAuth();
  return {
    issuer: config.baseUrl,
    signer: await getSigner(),
    clock,
    random,
    store: tokens,
    users,
    environments,
    ...(config.dcr.environmentId !== undefined ? { dcrEnvironmentId: config.dcr.environmentId } : {}),
  };
}

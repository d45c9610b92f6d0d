/** What checking a DPoP proof needs in this container (behaviour TOKEN-7): jose's signature check, the shared jti cache, the clock. */
import { dpopProofSignature } from '../adapters/dpop-proof-signature';
import type { DpopDependencies } from '../core/dpop';
import { getContainer } from './container';
import { getSingleUseIds } from './single-use-ids';

export const getDpopDependencies = (): DpopDependencies => ({
  signature: dpopProofSignature,
  singleUseIds: getSingleUseIds(),
  clock: getContainer().clock,
});

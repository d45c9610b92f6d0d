/**
 * The token endpoint's DPoP check, with server nonces when DPOP_NONCE_REQUIRED is set (behaviour
 * TOKEN-10). Apart from wiring/dpop.ts because the nonce keys come from the signing key set, which
 * only the token function may read: the bearer endpoints must not bundle its source.
 */
import { nonceKeysOf } from '../adapters/signing/dpop-nonce-keys';
import { keySourceFromEnv } from '../adapters/signing/key-sources';
import { signingKeyCacheMs } from '../adapters/signing/rotation';
import type { DpopDependencies } from '../core/dpop';
import { timeStepNonces } from '../core/dpop-nonces';
import { cachedLoader } from '../core/cache';
import { awsClientSettings } from './aws';
import { getContainer, perContainer } from './container';
import { getDpopDependencies } from './dpop';

/** The nonce keys, read with the signing key set and kept as long (a rotation reaches both together). */
const getNonceKeys = /* @__PURE__ */ perContainer((env) => {
  const source = keySourceFromEnv(env, awsClientSettings(env));
  return cachedLoader(async () => nonceKeysOf(await source()), signingKeyCacheMs, getContainer().clock);
});

export async function getTokenEndpointDpop(): Promise<DpopDependencies> {
  const base = getDpopDependencies();
  if (!getContainer().config.dpopNonceRequired) return base;
  return { ...base, nonces: timeStepNonces(await getNonceKeys()(), base.clock) };
}

import { createSigner, type JwtSigner } from '../adapters/signing/key-set';
import { keySourceFromEnv } from '../adapters/signing/key-sources';
import { signingKeyCacheMs } from '../adapters/signing/rotation';
import { createVerifier, type AccessTokenVerifier } from '../adapters/signing/verifier';
import { cachedLoader } from '../core/cache';
import { getRuntime, perContainer } from './base';

/**
 * The key set, loaded on first use and kept for a few minutes per container, so a
 * rotated key set is picked up without a Secrets Manager call per request. Key rotation
 * (adapters/signing/rotation.ts) waits out this cache, so both read the one constant.
 */
const getKeys = perContainer((env) => {
  const source = keySourceFromEnv(env);
  const signer = cachedLoader(async () => createSigner(await source()), signingKeyCacheMs, getRuntime().clock);
  const verifier = cachedLoader(async () => createVerifier(await source()), signingKeyCacheMs, getRuntime().clock);
  return { signer, verifier };
});

export const getSigner = (): Promise<JwtSigner> => getKeys().signer();
export const getVerifier = (): Promise<AccessTokenVerifier> => getKeys().verifier();

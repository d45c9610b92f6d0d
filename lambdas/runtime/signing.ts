import { createSigner, type JwtSigner } from '../adapters/signing/key-set';
import { keySourceFromEnv } from '../adapters/signing/key-sources';
import { cachedLoader } from '../core/cache';
import { getRuntime, perContainer } from './base';

/**
 * The token signer, loaded on first use and kept for a few minutes per container, so a
 * rotated key set is picked up without a Secrets Manager call per request.
 */
export const getSigner = perContainer((env): (() => Promise<JwtSigner>) => {
  const source = keySourceFromEnv(env);
  return cachedLoader(async () => createSigner(await source()), 5 * 60_000, getRuntime().clock);
});

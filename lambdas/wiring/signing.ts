import { createSigner, type JwtSigner } from '../adapters/signing/key-set';
import { keySourceFromEnv } from '../adapters/signing/key-sources';
import { signingKeyCacheMs } from '../adapters/signing/rotation';
import { cachedLoader } from '../core/cache';
import { awsClientSettings } from './aws';
import { getContainer, perContainer } from './container';

/**
 * The key set, loaded on first use and kept for a few minutes per container, so a
 * rotated key set is picked up without a Secrets Manager call per request. Key rotation
 * (adapters/signing/rotation.ts) waits out this cache, so both read the one constant.
 */
const getSignerLoader = /* @__PURE__ */ perContainer((env) => {
  const source = keySourceFromEnv(env, awsClientSettings(env));
  return cachedLoader(async () => createSigner(await source()), signingKeyCacheMs, getContainer().clock);
});

export const getSigner = (): Promise<JwtSigner> => getSignerLoader()();

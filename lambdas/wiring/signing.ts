import { createSigner, publicJwks, type JwtSigner } from '../adapters/signing/key-set';
import { keySourceFromEnv } from '../adapters/signing/key-sources';
import { signingKeyCacheMs } from '../adapters/signing/rotation';
import { createLocalVerifier, createRemoteVerifier, type AccessTokenVerifier } from '../adapters/signing/verifier';
import { cachedLoader } from '../core/cache';
import { getContainer, perContainer } from './container';

/**
 * The key set, loaded on first use and kept for a few minutes per container, so a
 * rotated key set is picked up without a Secrets Manager call per request. Key rotation
 * (adapters/signing/rotation.ts) waits out this cache, so both read the one constant.
 */
const getSignerLoader = /* @__PURE__ */ perContainer((env) => {
  const source = keySourceFromEnv(env);
  return cachedLoader(async () => createSigner(await source()), signingKeyCacheMs, getContainer().clock);
});

/**
 * Functions that only verify tokens are not given the private key set (route row
 * `verifiesTokens`): in AWS they read the public JWKS from the CDN like a resource server.
 * Locally and in tests the key file is at hand, and its public half is used.
 */
const getVerifierLoader = /* @__PURE__ */ perContainer((env) => {
  if (!env.SIGNING_KEY_FILE && !env.SIGNING_KEY_SECRET_ARN) {
    const verifier = createRemoteVerifier(getContainer().config.jwksUri);
    return async () => verifier;
  }
  const source = keySourceFromEnv(env);
  return cachedLoader(async () => createLocalVerifier(publicJwks(await source())), signingKeyCacheMs, getContainer().clock);
});

export const getSigner = (): Promise<JwtSigner> => getSignerLoader()();
export const getVerifier = (): Promise<AccessTokenVerifier> => getVerifierLoader()();

import { fileKeySource } from '../adapters/signing/key-file';
import { publicJwks } from '../adapters/signing/key-set';
import { signingKeyCacheMs } from '../adapters/signing/rotation';
import { createLocalVerifier, createRemoteVerifier, type AccessTokenVerifier } from '../adapters/signing/verifier';
import { cachedLoader } from '../core/cache';
import { getContainer, perContainer } from './container';

/**
 * Functions verify this server's access tokens against the public JWKS on the CDN, like any
 * resource server: they are never given the private key set (route row `verifiesTokens`), nor the
 * Secrets Manager client that reads it. Locally and in tests the key file is at hand, and its
 * public half is used (cached as the signer's key set is, so a rotation reaches both alike).
 */
const getVerifierLoader = /* @__PURE__ */ perContainer((env) => {
  if (!env.SIGNING_KEY_FILE) {
    const verifier = createRemoteVerifier(getContainer().config.jwksUri);
    return async () => verifier;
  }
  const source = fileKeySource(env.SIGNING_KEY_FILE);
  return cachedLoader(async () => createLocalVerifier(publicJwks(await source())), signingKeyCacheMs, getContainer().clock);
});

export const getVerifier = (): Promise<AccessTokenVerifier> => getVerifierLoader()();

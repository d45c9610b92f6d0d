/**
 * The JWT-assertion verifier of this container (private_key_jwt, the JWT-bearer grant), with its
 * cache of fetched jwks_uri sets. Loaded on first use: jose and the fetcher stay out of the start
 * of a function that never meets an assertion. The local server (localMode) lets a jwks_uri live
 * on loopback, as it does metadata documents.
 */
import type { JwtAssertionVerifier } from '../core/jwt-assertions';
import { getContainer, perContainer } from './container';

export const getJwtAssertionVerifier = /* @__PURE__ */ perContainer((): JwtAssertionVerifier => {
  const { config, clock } = getContainer();
  let loaded: Promise<JwtAssertionVerifier> | undefined;
  const verifier = () =>
    (loaded ??= Promise.all([
      import('../adapters/jwt-assertion-verifier'),
      import('../adapters/remote-jwks'),
      import('../adapters/metadata-document-fetcher'),
    ]).then(([{ createJwtAssertionVerifier }, { RemoteJwksCache }, { fetchMetadataDocument }]) =>
      createJwtAssertionVerifier(
        clock,
        new RemoteJwksCache((url, maxBytes) => fetchMetadataDocument(url, config.localMode, undefined, undefined, maxBytes), clock),
      ),
    ));
  return { verify: async (jwt, keys, expect) => (await verifier()).verify(jwt, keys, expect) };
});

/**
 * The reference for `npm run bench`: node-oidc-provider serving client_credentials with JWT
 * access tokens signed with SIGNING_ALG (RS256 by default, or ES256) from its in-memory adapter.
 * Started by bench/client-credentials.ts. Reads PORT, CLIENT_ID, CLIENT_SECRET, RESOURCE and
 * SIGNING_ALG from the environment; prints "ready".
 */
import { generateKeyPair, exportJWK } from 'jose';
import Provider from 'oidc-provider';

const port = Number(process.env.PORT);
const resource = process.env.RESOURCE;
const alg = process.env.SIGNING_ALG === 'ES256' ? 'ES256' : 'RS256';
const { privateKey } = await generateKeyPair(alg, { extractable: true });
const jwk = { ...(await exportJWK(privateKey)), alg, use: 'sig', kid: 'bench' };

const provider = new Provider(`http://localhost:${port}`, {
  clients: [
    {
      client_id: process.env.CLIENT_ID,
      client_secret: process.env.CLIENT_SECRET,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'client_secret_basic',
      // Its default (RS256) must be a key it holds; no ID token is ever issued here.
      id_token_signed_response_alg: alg,
      scope: 'admin',
    },
  ],
  jwks: { keys: [jwk] },
  scopes: ['admin'],
  features: {
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => resource,
      useGrantedResource: () => true,
      getResourceServerInfo: () => ({
        scope: 'admin',
        audience: resource,
        accessTokenTTL: 3600,
        accessTokenFormat: 'jwt',
        jwt: { sign: { alg } },
      }),
    },
  },
});
provider.listen(port, '127.0.0.1', () => process.stdout.write('ready\n'));

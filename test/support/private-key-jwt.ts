/**
 * private_key_jwt from the client's side (RFC 7523 2.2): a client's key pair, assertions signed
 * with jose for the bad-input tests, and oauth4webapi pointed at the handlers themselves (its
 * requests become API Gateway events), so the real client library drives the endpoints.
 */
import { randomUUID } from 'node:crypto';
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import * as oauth from 'oauth4webapi';
import { handler as introspect } from '../../lambdas/handlers/introspect';
import { handler as par } from '../../lambdas/handlers/par';
import { handler as revoke } from '../../lambdas/handlers/revoke';
import { handler as token } from '../../lambdas/handlers/token';
import { apiGatewayEvent, lambdaContext } from './events';

export const jwtBearer = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

export interface ClientKey {
  readonly alg: string;
  readonly kid: string;
  readonly privateKey: CryptoKey;
  /** The public JWK, with its kid and alg, as the client registers it. */
  readonly jwk: JWK;
}

export async function clientKey(alg = 'ES256', kid = randomUUID()): Promise<ClientKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { alg, kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

/** An assertion for `clientId` to this server, valid for 60 s unless `claims` or `header` change it. */
export function clientAssertion(
  clientId: string,
  key: ClientKey,
  claims: Record<string, unknown> = {},
  header: Record<string, unknown> = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: clientId, sub: clientId, aud: process.env.BASE_URL!, iat: now, exp: now + 60, jti: randomUUID(), ...claims })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, ...header })
    .sign(key.privateKey);
}

/** The form fields of private_key_jwt. */
export const assertionFields = (assertion: string, clientId?: string) => ({
  ...(clientId ? { client_id: clientId } : {}),
  client_assertion_type: jwtBearer,
  client_assertion: assertion,
});

const handlers = { '/api/token': token, '/api/token/introspect': introspect, '/api/token/revoke': revoke, '/api/par': par };

/** oauth4webapi's requests, answered by the handlers as API Gateway would call them. */
export const toHandlers = {
  [oauth.customFetch]: async (url: string, init: oauth.CustomFetchOptions<string, unknown>) => {
    const path = new URL(url).pathname as keyof typeof handlers;
    const headers = Object.fromEntries(new Headers(init.headers as Record<string, string>).entries());
    const event = apiGatewayEvent({ method: init.method, path, headers, body: String(init.body) });
    const result = await handlers[path](event, lambdaContext);
    return new Response(result.body, { status: result.statusCode, headers: result.headers as Record<string, string> });
  },
  [oauth.allowInsecureRequests]: false,
};

/** This server as oauth4webapi sees it (its discovery document's endpoints). */
export const authorizationServer = (): oauth.AuthorizationServer => {
  const issuer = process.env.BASE_URL!;
  return {
    issuer,
    token_endpoint: `${issuer}/api/token`,
    introspection_endpoint: `${issuer}/api/token/introspect`,
    revocation_endpoint: `${issuer}/api/token/revoke`,
    pushed_authorization_request_endpoint: `${issuer}/api/par`,
  };
};

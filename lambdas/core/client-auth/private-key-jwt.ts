/**
 * private_key_jwt (RFC 7523 2.2, RFC 7521 4.2, behaviour TOKEN-6): the client signs a short-lived
 * JWT with a key of its registered JWKS; `iss` and `sub` are its client_id, `aud` names this
 * server, and the `jti` is accepted once. A confidential client with keys has no secret.
 */
import * as z from 'zod/mini';
import { InvalidRequestError } from '../errors';
import { formField } from '../grants/grant';
import { AssertionRejected, type KeySource } from '../jwt-assertions';
import type { Client } from '../model';
import { clientAuthFailed } from './client-secret';
import { type ClientAuthMethodImplementation, clientIdField, type PresentedClient } from './method';
import type { ClientAuthDependencies } from './ports';

export const jwtBearerAssertionType = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** Behaviour TOKEN-6: long enough for a slow network, short enough that a leaked one is soon useless. */
export const clientAssertionMaxLifetimeSeconds = 300;

/** A JWT of a few claims and a P-521 or RSA-4096 signature fits well within this. */
const maxAssertionLength = 8192;

export const presentsAssertion = (form: Readonly<Record<string, string | undefined>>): boolean =>
  form.client_assertion !== undefined || form.client_assertion_type !== undefined;

/** The `sub` of an assertion not yet verified: which client to look up when the form names none (RFC 7521 4.2). */
function unverifiedSubject(assertion: string): string | undefined {
  try {
    const payload = JSON.parse(Buffer.from(assertion.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sub?: unknown };
    return typeof payload.sub === 'string' && payload.sub.length > 0 && payload.sub.length <= 2000 ? payload.sub : undefined;
  } catch {
    return undefined;
  }
}

export function keySourceOf(client: Client): KeySource | undefined {
  if (client.jwks) return { jwks: client.jwks };
  if (client.jwksUri) return { jwksUri: client.jwksUri };
  return undefined;
}

async function verifyAssertion(client: Client, presented: PresentedClient, deps: ClientAuthDependencies): Promise<void> {
  const keys = keySourceOf(client);
  if (!keys || presented.assertion === undefined) throw clientAuthFailed('a client without registered keys presented an assertion');
  try {
    const { claims } = await deps.assertions.verifier.verify(presented.assertion, keys, {
      audiences: deps.assertions.audiences,
      issuer: client.clientId,
      subject: client.clientId,
      // The registered algorithm pins it; otherwise a key's own alg does (the verifier's key selection).
      ...(client.tokenEndpointAuthSigningAlg ? { algorithms: [client.tokenEndpointAuthSigningAlg] } : {}),
      maxLifetimeSeconds: clientAssertionMaxLifetimeSeconds,
    });
    // Last, once everything else holds: a refused assertion writes nothing (RFC 7523 3, point 7).
    if (!(await deps.assertions.singleUseIds.use('client-assertion', client.clientId, claims.jti as string, claims.exp as number))) {
      throw new AssertionRejected('replayed', 'jti already used');
    }
  } catch (error) {
    if (error instanceof AssertionRejected) throw clientAuthFailed(`client assertion refused (${error.message})`);
    throw error;
  }
}

export const privateKeyJwt: ClientAuthMethodImplementation<'private_key_jwt'> = {
  description:
    '`private_key_jwt`: `client_assertion_type` `urn:ietf:params:oauth:client-assertion-type:jwt-bearer` and `client_assertion`, a JWT signed with a key the client registered (RFC 7523 2.2)',
  formFields: {
    client_id: clientIdField,
    client_assertion_type: z.optional(formField.required(jwtBearerAssertionType.length)),
    client_assertion: z.optional(formField.required(maxAssertionLength)),
  },
  present({ authorization, form }) {
    if (!presentsAssertion(form)) return undefined;
    // RFC 6749 2.3: one method per request.
    if (authorization || form.client_secret !== undefined)
      throw new InvalidRequestError('Use one client authentication method, not several.');
    if (form.client_assertion_type !== jwtBearerAssertionType) {
      throw clientAuthFailed(`unsupported client_assertion_type ${JSON.stringify(form.client_assertion_type?.slice(0, 100))}`);
    }
    if (form.client_assertion === undefined) throw clientAuthFailed('client_assertion_type without client_assertion');
    const clientId = form.client_id ?? unverifiedSubject(form.client_assertion);
    if (!clientId) throw clientAuthFailed('no client_id and no sub in the assertion');
    return { clientId, assertion: form.client_assertion, method: 'private_key_jwt' };
  },
  verify: verifyAssertion,
};

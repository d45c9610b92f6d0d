/**
 * Each client-authentication method's implementation, against its name in auth-methods.ts: a
 * name without an implementation, or an implementation without a name, does not compile. The
 * token, introspection and revocation endpoints read these; what only names the methods
 * (discovery, dynamic registration) reads auth-methods.ts.
 */
import { InvalidClientError, InvalidRequestError } from '../errors';
import { clientAuthMethodFacts, type ClientAuthMethodName, clientAuthMethodNames } from './auth-methods';
import { clientSecretBasic } from './client-secret-basic';
import { clientSecretPost } from './client-secret-post';
import type { ClientAuthFormField, ClientAuthMethod, ClientAuthMethodImplementation, ClientAuthRequest, PresentedClient } from './method';
import { none } from './none';
import { privateKeyJwt } from './private-key-jwt';

const implementations: { readonly [N in ClientAuthMethodName]: ClientAuthMethodImplementation<N> } = {
  none,
  client_secret_basic: clientSecretBasic,
  client_secret_post: clientSecretPost,
  private_key_jwt: privateKeyJwt,
};

/** In auth-methods.ts's order, the order discovery lists them. */
export const clientAuthMethods: readonly ClientAuthMethod[] = clientAuthMethodNames.map((name) => ({
  name,
  ...clientAuthMethodFacts[name],
  ...implementations[name],
}));

/** Every method's form fields, for the forms of the token, introspection and revocation endpoints. */
export const clientAuthFormFields: Readonly<Record<string, ClientAuthFormField>> = Object.assign(
  {},
  ...clientAuthMethods.map((method) => method.formFields),
);

export function clientAuthMethodNamed(name: ClientAuthMethodName): ClientAuthMethod {
  return clientAuthMethods.find((method) => method.name === name)!;
}

/** The credentials of the one method the request used (RFC 6749 2.3: never several). */
export function presentedClient(request: ClientAuthRequest): PresentedClient<ClientAuthMethodName> {
  const claims = clientAuthMethods.map((method) => method.present(request)).filter((presented) => presented !== undefined);
  if (claims.length > 1) throw new InvalidRequestError('Use one client authentication method, not several.');
  if (claims[0]) return claims[0];
  if (request.authorization) throw new InvalidClientError('Client authentication failed.', 'unsupported Authorization scheme');
  throw new InvalidClientError('Client authentication failed.', 'no client_id');
}

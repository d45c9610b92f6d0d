/**
 * Each client-authentication method's implementation, against its name in auth-methods.ts: a
 * name without an implementation, or an implementation without a name, does not compile. The
 * token, introspection and revocation endpoints read these; what only names the methods
 * (discovery, dynamic registration) reads auth-methods.ts.
 */
import { InvalidClientError } from '../errors';
import { clientAuthMethodFacts, type ClientAuthMethodName, clientAuthMethodNames } from './auth-methods';
import { clientSecretBasic } from './client-secret-basic';
import { clientSecretPost } from './client-secret-post';
import type { ClientAuthFormField, ClientAuthMethod, ClientAuthMethodImplementation, ClientAuthRequest, PresentedClient } from './method';
import { none } from './none';

const implementations: { readonly [N in ClientAuthMethodName]: ClientAuthMethodImplementation<N> } = {
  none,
  client_secret_basic: clientSecretBasic,
  client_secret_post: clientSecretPost,
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
  for (const method of clientAuthMethods) {
    const presented = method.present(request);
    if (presented) return presented;
  }
  if (request.authorization) throw new InvalidClientError('Client authentication failed.', 'unsupported Authorization scheme');
  throw new InvalidClientError('Client authentication failed.', 'no client_id');
}

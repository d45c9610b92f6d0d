/**
 * The client-authentication methods of the token, introspection and revocation endpoints
 * (RFC 6749 2.3, behaviour TOKEN-3): the one list of them. Discovery's *_auth_methods_supported,
 * the OpenAPI document, dynamic registration's `token_endpoint_auth_method` and the endpoints
 * read it.
 */
import { InvalidClientError } from '../errors';
import type { ClientType } from '../model';
import { clientSecretBasic } from './client-secret-basic';
import { clientSecretPost } from './client-secret-post';
import type { ClientAuthFormField, ClientAuthMethod, ClientAuthRequest, PresentedClient } from './method';
import { none } from './none';

/** In the order discovery lists them. */
export const clientAuthMethods = [none, clientSecretBasic, clientSecretPost] as const;

export type ClientAuthMethodName = (typeof clientAuthMethods)[number]['name'];

export const clientAuthMethodNames: readonly ClientAuthMethodName[] = clientAuthMethods.map((method) => method.name);

/** Every method's form fields, for the forms of the token, introspection and revocation endpoints. */
export const clientAuthFormFields: Readonly<Record<string, ClientAuthFormField>> = Object.assign(
  {},
  ...clientAuthMethods.map((method) => method.formFields),
);

/** The methods of one client type: introspection takes the confidential ones (behaviour INTRO-1), dynamic registration the public ones (REG-3). */
export const clientAuthMethodsFor = (type: ClientType): readonly ClientAuthMethodName[] =>
  clientAuthMethods.filter((method) => method.clientType === type).map((method) => method.name);

export function clientAuthMethodNamed(name: ClientAuthMethodName): ClientAuthMethod<ClientAuthMethodName> {
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

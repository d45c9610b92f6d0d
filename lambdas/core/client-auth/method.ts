/**
 * What a client-authentication method is, for the token, introspection and revocation endpoints
 * (RFC 6749 2.3, RFC 8414 2 `token_endpoint_auth_methods_supported`): its registered name and the
 * client type it authenticates (auth-methods.ts), how it reads the credentials from the request,
 * and how it checks them against the client record. Each method is one module in this folder that
 * exports its implementation; registry.ts joins each to its name for the endpoints, while
 * discovery and dynamic registration read auth-methods.ts alone. Adding a method is one entry
 * there, one module and one line in the registry.
 */
import * as z from 'zod/mini';
import { formField } from '../grants/grant';
import type { Client } from '../model';
import type { ClientAuthDependencies } from './ports';
import type { ClientAuthMethodFacts, ClientAuthMethodName } from './auth-methods';

/** The parts of the request a method reads its credentials from. */
export interface ClientAuthRequest {
  readonly authorization: string | undefined;
  readonly form: Readonly<Record<string, string | undefined>>;
}

export interface PresentedClient<N extends string = string> {
  readonly clientId: string;
  /** The secret presented, if the method presents one (an unknown client with one costs a dummy verification). */
  readonly secret?: string;
  /** The signed JWT of private_key_jwt (RFC 7523 2.2). */
  readonly assertion?: string;
  readonly method: N;
}

/** A form field of a method: optional, since a request uses one method; bounded (behaviour LIMIT-2), `invalid_request` beyond. */
export type ClientAuthFormField = z.ZodMiniOptional<z.ZodMiniString>;

/** client_id: metadata document URLs (Client ID Metadata Documents) run to 2000 characters. */
export const clientIdField: ClientAuthFormField = z.optional(formField.required(2000));

/** How one method reads and checks credentials: what its module exports. */
export interface ClientAuthMethodImplementation<N extends string = string> {
  /** How the OpenAPI document describes it. */
  readonly description: string;
  /** The form fields it reads, with their bounds: the token, introspection and revocation forms take them all. */
  readonly formFields: Readonly<Record<string, ClientAuthFormField>>;
  /**
   * The credentials, when the request used this method; undefined when it did not. Throws when
   * the request used it wrongly. At most one method claims a request: each looks only at what
   * no other method reads.
   */
  present(request: ClientAuthRequest): PresentedClient<N> | undefined;
  /** The client record was found and is of the method's `clientType`: checks the credentials against it. */
  verify(client: Client, presented: PresentedClient<N>, deps: ClientAuthDependencies): Promise<void>;
}

/** A method as the endpoints use it: its registered name (RFC 7591 2 `token_endpoint_auth_method`) and facts with its implementation. */
export interface ClientAuthMethod<N extends ClientAuthMethodName = ClientAuthMethodName>
  extends ClientAuthMethodFacts,
    ClientAuthMethodImplementation<N> {
  readonly name: N;
}

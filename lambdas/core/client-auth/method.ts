/**
 * What a client-authentication method is, for the token, introspection and revocation endpoints
 * (RFC 6749 2.3, RFC 8414 2 `token_endpoint_auth_methods_supported`): its registered name, the
 * client type it authenticates, how it reads the credentials from the request, and how it checks
 * them against the client record. Each method is one module in this folder that exports one of
 * these; registry.ts lists them, and discovery, the OpenAPI document, dynamic registration and
 * the endpoints read that list. Adding a method is one module and one line in the registry.
 */
import * as z from 'zod/mini';
import { formField } from '../grants/grant';
import type { Client, ClientType } from '../model';
import type { ClientAuthDependencies } from './authenticate';

/** The parts of the request a method reads its credentials from. */
export interface ClientAuthRequest {
  readonly authorization: string | undefined;
  readonly form: Readonly<Record<string, string | undefined>>;
}

export interface PresentedClient<N extends string = string> {
  readonly clientId: string;
  /** The secret presented, if the method presents one (an unknown client with one costs a dummy verification). */
  readonly secret?: string;
  readonly method: N;
}

/** A form field of a method: optional, since a request uses one method; bounded (behaviour LIMIT-2), `invalid_request` beyond. */
export type ClientAuthFormField = z.ZodMiniOptional<z.ZodMiniString>;

/** client_id: metadata document URLs (Client ID Metadata Documents) run to 2000 characters. */
export const clientIdField: ClientAuthFormField = z.optional(formField.required(2000));

export interface ClientAuthMethod<N extends string = string> {
  /** The registered name (RFC 7591 2 `token_endpoint_auth_method`). */
  readonly name: N;
  /** The one client type it authenticates: any other presenting it is `invalid_client`. */
  readonly clientType: ClientType;
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
  /** The client record was found and is of `clientType`: checks the credentials against it. */
  verify(client: Client, presented: PresentedClient<N>, deps: ClientAuthDependencies): Promise<void>;
}

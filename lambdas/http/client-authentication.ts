/**
 * Client authentication of a request to the token, introspection or revocation endpoint
 * (RFC 6749 2.3.1): the credentials from the Authorization header or the form, checked
 * with the verified-secret cache so a repeat request skips Argon2id.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { authenticateClient, type ClientAuthDependencies } from '../core/client-auth/authenticate';
import { clientAuthMethodsFor, type ClientAuthMethodName } from '../core/client-auth/auth-methods';
import { clientAuthFormFields, presentedClient } from '../core/client-auth/registry';
import { InvalidClientError } from '../core/errors';
import type { Client } from '../core/model';
import { header } from './body';
import { labelClient } from './request-context';

export interface AuthenticatedClient {
  readonly client: Client;
  readonly method: ClientAuthMethodName;
}

export async function authenticateRequestClient(
  event: Pick<APIGatewayProxyEvent, 'headers'>,
  form: Readonly<Record<string, string | undefined>>,
  deps: ClientAuthDependencies,
  /** Told about the client record once found, before its secret is checked (for the activity row). */
  onFound?: (client: Client) => void,
): Promise<AuthenticatedClient> {
  const authorization = header(event, 'authorization');
  try {
    const presented = presentedClient({ authorization, form });
    const client = await authenticateClient(presented, {
      ...deps,
      findClient: async (clientId) => {
        labelClient(clientId);
        const found = await deps.findClient(clientId);
        if (found) onFound?.(found);
        return found;
      },
    });
    return { client, method: presented.method };
  } catch (error) {
    // RFC 6749 5.2: a client that tried the Authorization header gets 401 with a challenge
    // for the scheme we support.
    if (error instanceof InvalidClientError && authorization !== undefined) {
      throw new InvalidClientError(error.description, error.reason, {
        headers: { ...error.headers, 'WWW-Authenticate': 'Basic realm="oauth", charset="UTF-8"' },
        cause: error.cause,
      });
    }
    throw error;
  }
}

/**
 * Whether the request carries any client credential, of any method (RFC 7523 2.1: an assertion
 * grant may come with none, behaviour JWTB-1).
 */
export function presentsClientCredentials(
  event: Pick<APIGatewayProxyEvent, 'headers'>,
  form: Readonly<Record<string, string | undefined>>,
): boolean {
  return header(event, 'authorization') !== undefined || Object.keys(clientAuthFormFields).some((name) => form[name] !== undefined);
}

/** Introspection (RFC 7662 2.1, behaviour INTRO-1) is for clients that can authenticate: public clients are refused. */
export function requireConfidential({ client, method }: AuthenticatedClient): Client {
  if (client.type !== 'confidential' || !clientAuthMethodsFor('confidential').includes(method)) {
    throw new InvalidClientError('Client authentication failed.', `${client.type} client ${client.clientId} may not introspect`);
  }
  return client;
}

/**
 * Client authentication at the token, introspection and revocation endpoints (RFC 6749 2.3.1,
 * behaviour TOKEN-3): the presented method must be one of the client's type, and its credentials
 * must check. Every failure is the same `invalid_client` (the reason is for the log only).
 */
import type { Client } from '../model';
import { clientAuthFailed } from './client-secret';
import type { PresentedClient } from './method';
import type { ClientAuthDependencies } from './ports';
import type { ClientAuthMethodName } from './auth-methods';
import { clientAuthMethodNamed } from './registry';

export type { ClientAuthDependencies } from './ports';

export async function authenticateClient(presented: PresentedClient<ClientAuthMethodName>, deps: ClientAuthDependencies): Promise<Client> {
  const client = await deps.findClient(presented.clientId);
  if (!client) {
    // The time of a verification either way: the answer must not tell whether the id exists.
    if (presented.secret !== undefined) await deps.hasher.verifyDummy(presented.secret);
    throw clientAuthFailed(`unknown client ${presented.clientId}`);
  }
  const method = clientAuthMethodNamed(presented.method);
  if (client.type !== method.clientType) {
    throw clientAuthFailed(
      client.type === 'public'
        ? `a public client presented ${presented.assertion ? 'an assertion' : 'a secret'}`
        : 'a confidential client presented no secret',
    );
  }
  await method.verify(client, presented, deps);
  return client;
}

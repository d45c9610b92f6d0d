/**
 * The notice to the bound user after a self-service key creation (behaviour KEY-14): client, key
 * id, scopes and expiry, and the address that revokes the key. Never the secret.
 */
import type { ApiKey, Client, User } from '../model';
import type { ApiKeyCreatedNotice } from '../notices';

export function keyCreatedNotice(key: ApiKey, client: Pick<Client, 'clientId' | 'name'>, user: User, issuer: string): ApiKeyCreatedNotice {
  return {
    kind: 'api-key-created',
    key,
    client,
    userName: user.name,
    issuer,
    revokeUrl: `${issuer}/api/admin/clients/${encodeURIComponent(client.clientId)}/api-keys/${key.keyId}`,
  };
}

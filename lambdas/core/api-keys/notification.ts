/**
 * The mail to the bound user after a self-service key creation (spec 3.1, 6): client, key
 * id, scopes and expiry, so a key the user did not create is noticed. Never the secret.
 */
import type { ApiKey, Client, User } from '../model';
import type { MailMessage } from '../ports';

export function keyCreatedMail(key: ApiKey, client: Pick<Client, 'clientId' | 'name'>, user: User & { email: string }): MailMessage {
  return {
    to: user.email,
    subject: `A new API key for ${client.name}`,
    text: [
      `Hello ${user.name},`,
      '',
      'An API key bound to your account was just created.',
      '',
      `  Client:  ${client.name} (${client.clientId})`,
      `  Key id:  ${key.keyId}`,
      ...(key.name ? [`  Name:    ${key.name}`] : []),
      `  Scopes:  ${key.scopes.join(' ')}`,
      `  Expires: ${key.expiresAt ?? 'never'}`,
      '',
      'If you did not create this key, revoke it and tell your administrator.',
    ].join('\n'),
  };
}

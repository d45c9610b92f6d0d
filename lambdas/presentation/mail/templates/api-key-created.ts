/**
 * Behaviour KEY-14: client, key id, scopes and expiry, so a key the user did not create is
 * noticed, and what the user can do about it: who can revoke the key and how. Never the secret.
 */
import type { ApiKeyCreatedNotice } from '../../../core/notices';
import type { MailText } from '../branded';

export const apiKeyCreatedMail = ({ key, client, userName, issuer, revokeUrl }: ApiKeyCreatedNotice): MailText => ({
  subject: `A new API key for ${client.name}`,
  text: [
    `Hello ${userName},`,
    '',
    `An API key bound to your account was just created through ${client.name}. Every token it`,
    'mints acts as you.',
    '',
    `  Client:  ${client.name} (${client.clientId})`,
    `  Key id:  ${key.keyId}`,
    ...(key.name ? [`  Name:    ${key.name}`] : []),
    `  Scopes:  ${key.scopes.join(' ')}`,
    `  Expires: ${key.expiresAt ?? 'never'}`,
    '',
    'If you did not create this key, revoke it now. Either:',
    `  - sign in to ${client.name} and revoke key ${key.keyId} there (it lists and revokes`,
    '    the keys it created for you), or send',
    `    DELETE ${revokeUrl}`,
    `    with an access token ${client.name} obtained for you; or`,
    `  - ask an administrator of ${issuer} to revoke key ${key.keyId}.`,
    'Someone was able to act as you in that client: tell your administrator too.',
    'Tokens the key already minted stay valid for at most one hour.',
  ].join('\n'),
});

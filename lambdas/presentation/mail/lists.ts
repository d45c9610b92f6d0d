/** The list lines several mails share: a passkey or an API key, one per line. */
import { passkeyLabel, utcMinute } from '../../core/account/passkeys';
import type { ApiKeyMention, PasskeyMention } from '../../core/notices';

/** The name, when it was added and last used (behaviour PASSKEY-11). */
export const passkeyLine = (passkey: PasskeyMention) =>
  `- "${passkeyLabel(passkey)}", added ${utcMinute(passkey.createdAt)}, last used ${passkey.lastUsedAt ? utcMinute(passkey.lastUsedAt) : 'never'}`;

/** Never the secret, which is not stored anyway (behaviour KEY-2). */
export const apiKeyLine = (key: ApiKeyMention) =>
  `- ${key.name ? `"${key.name}"` : 'unnamed key'} (key id ${key.keyId}, client ${key.clientId}), created ${utcMinute(key.createdAt)}, last used ${key.lastUsedAt ? utcMinute(key.lastUsedAt) : 'never'}${key.pending ? ', still being created' : ''}`;

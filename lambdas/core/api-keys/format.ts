/**
 * The presented API key (behaviour KEY-1): `tgk_<key id>_<secret>`, key id 8 random bytes in hex,
 * secret 32 random bytes in base64url (43 characters, no padding). Base64url secrets
 * contain `_`, so the key is parsed with one anchored pattern, never split on `_`.
 */
import type { RandomSource } from '../ports';

/** The fixed prefix of every key: "tollgate key". Lets secret scanners recognise leaked keys. */
export const apiKeyPrefix = 'tgk';

const keyPattern = /^tgk_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;
/** A key id on its own, as it appears in admin API paths. */
export const keyIdPattern = /^[0-9a-f]{16}$/;

export interface PresentedApiKey {
  readonly keyId: string;
  readonly secret: string;
}

/** The key's parts, or undefined for anything that is not exactly a key. */
export function parseApiKey(value: string | undefined): PresentedApiKey | undefined {
  const match = value === undefined ? null : keyPattern.exec(value);
  return match ? { keyId: match[1]!, secret: match[2]! } : undefined;
}

export interface NewApiKey extends PresentedApiKey {
  /** The full key as the holder presents it; shown once, never stored. */
  readonly key: string;
}

export function newApiKey(random: RandomSource): NewApiKey {
  const keyId = Buffer.from(random.bytes(8)).toString('hex');
  const secret = Buffer.from(random.bytes(32)).toString('base64url');
  return { keyId, secret, key: `${apiKeyPrefix}_${keyId}_${secret}` };
}

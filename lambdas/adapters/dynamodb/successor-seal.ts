/**
 * The successor a rotation keeps for its grace window (behaviour REFRESH-7), sealed so that only
 * the holder of the rotated token can open it: AES-256-GCM under a key derived (HKDF-SHA256,
 * RFC 5869) from that token itself. The table holds the token's SHA-256 digest, never the token,
 * so a dump of the table yields neither the key nor the successor; no key of this server is
 * involved, so there is none to rotate, leak or lose. The token is 256 random bits, so HKDF needs
 * no salt and no stretching. The item's key is the associated data: a sealed successor copied to
 * another item does not open.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const info = 'tollgate refresh-token successor v1';
const ivBytes = 12;
const tagBytes = 16;

const keyOf = (secret: string, purpose: string) => Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), Buffer.from(purpose), 32));

/**
 * base64url of iv, tag and ciphertext: `value` under a key derived from `secret` (256 random bits
 * only its holder has) for `purpose` (HKDF info: a key of one use never opens another's), `itemKey` the associated data.
 */
export function sealWithSecret(secret: string, purpose: string, value: string, itemKey: string): string {
  const iv = randomBytes(ivBytes);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret, purpose), iv);
  cipher.setAAD(Buffer.from(itemKey));
  const sealed = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

/** The value, or undefined when `sealed` was not sealed with this secret for this purpose and item. */
export function openWithSecret(secret: string, purpose: string, sealed: string, itemKey: string): string | undefined {
  const bytes = Buffer.from(sealed, 'base64url');
  if (bytes.length <= ivBytes + tagBytes) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(secret, purpose), bytes.subarray(0, ivBytes));
    decipher.setAAD(Buffer.from(itemKey));
    decipher.setAuthTag(bytes.subarray(ivBytes, ivBytes + tagBytes));
    return Buffer.concat([decipher.update(bytes.subarray(ivBytes + tagBytes)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

export const sealSuccessor = (rotatedToken: string, successor: string, itemKey: string) =>
  sealWithSecret(rotatedToken, info, successor, itemKey);

/** The successor, or undefined when `sealed` was not sealed with this token for this item. */
export const openSuccessor = (rotatedToken: string, sealed: string, itemKey: string) => openWithSecret(rotatedToken, info, sealed, itemKey);

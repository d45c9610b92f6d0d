import type { RandomSource } from './ports';

const alphabet = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lower case: no i, l, o, u

/** Base32 text of `bytes` random bytes: URL-safe, case-insensitive, no look-alike letters. */
export function randomToken(random: RandomSource, bytes: number): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of random.bytes(bytes)) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

/** Identifiers of stored records: a type prefix and 80 random bits. */
export function newId(prefix: string, random: RandomSource): string {
  return `${prefix}${randomToken(random, 10)}`;
}

/** A secret shown once (client secrets, generated passwords): 256 random bits, base64url. */
export function newSecret(random: RandomSource): string {
  return Buffer.from(random.bytes(32)).toString('base64url');
}

/**
 * Mailed one-time codes (behaviour MFA-3, MFA-4): six digits from a CSPRNG, valid ten minutes,
 * stored only as an Argon2id hash, a fixed number of attempts counted atomically by the
 * store. A code is good only for the item it was issued into (its challenge, or the user's
 * verification item) and the address it went to (ASVS 6.5.x, 6.6.2).
 */
import type { RandomSource } from '../ports';

/** Behaviour MFA-3: a mailed code lives 10 minutes. */
export const oneTimeCodeLifetimeSeconds = 600;

export const oneTimeCodePattern = /^[0-9]{6}$/;

/**
 * Six uniformly distributed digits: 32 random bits, rejected above the largest multiple of
 * 10^6 so that no code is likelier than another (a plain modulo would favour low codes).
 */
export function newOneTimeCode(random: RandomSource): string {
  const range = 1_000_000;
  const limit = Math.floor(0x1_0000_0000 / range) * range;
  for (;;) {
    const bytes = random.bytes(4);
    const value = ((bytes[0]! << 24) >>> 0) + (bytes[1]! << 16) + (bytes[2]! << 8) + bytes[3]!;
    if (value < limit) return String(value % range).padStart(6, '0');
  }
}

/** `a•••@example.com`: enough for the user to recognise the mailbox, not to learn it. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${email[0]}•••${email.slice(at)}`;
}

import argon2 from 'argon2';
import { randomBytes } from 'node:crypto';
import type { HashMethod } from '../config/settings';
import type { Hasher } from '../core/ports';

/**
 * Argon2id parameters per HASH_METHOD. `argon2id` follows the OWASP Password Storage
 * Cheat Sheet (19 MiB, 2 passes, 1 lane). `argon2id-fast` keeps the algorithm and the PHC
 * format but drops the cost, for local development and tests only.
 * Hashes carry their parameters (PHC string), so old hashes still verify after a change.
 */
export const hashPolicies: Record<HashMethod, { memoryCost: number; timeCost: number; parallelism: number }> = {
  argon2id: { memoryCost: 19456, timeCost: 2, parallelism: 1 },
  'argon2id-fast': { memoryCost: 1024, timeCost: 1, parallelism: 1 },
};

export function createHasher(method: HashMethod): Hasher {
  const policy = hashPolicies[method];
  const hash = (secret: string) => argon2.hash(secret, { type: argon2.argon2id, ...policy });
  const verify = async (stored: string, secret: string) => {
    try {
      return await argon2.verify(stored, secret);
    } catch {
      return false;
    }
  };
  let dummy: Promise<string> | undefined;
  return {
    hash,
    verify,
    verifyDummy: async (secret) => {
      dummy ??= hash(randomBytes(32).toString('base64url'));
      await verify(await dummy, secret);
    },
  };
}

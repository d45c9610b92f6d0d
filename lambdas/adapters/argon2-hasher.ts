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

/**
 * Hashes of discarded random secrets, one per policy: verifying against one costs what a
 * real verification costs, from the first request of a container on (a hash built on
 * demand would make that first unknown-id request slower, and so tell).
 */
export const dummyHashes: Record<HashMethod, string> = {
  argon2id: '$argon2id$v=19$m=19456,p=1,t=2$WFcjnoPvaaFFzZWzM6vRNA$9omkVbd9fea2kL8jDo+FjYyd5pz3gHzP/WXMUrp85RE',
  'argon2id-fast': '$argon2id$v=19$m=1024,p=1,t=1$2nxfm40ZAj9BRk4W6Tni7A$/UyqnFdVt4BLSy2glaOWucF7tZVw6g6q++pYdGyTAyc',
};

type Argon2 = typeof import('argon2');
let argon2: Promise<Argon2> | undefined;
/**
 * The native module is loaded on first use, not by a static import: `argon2` is external to the
 * esbuild bundle, and an external static import is hoisted to the top of the ESM bundle, so every
 * hashing function loaded the native binding on each cold start, even to answer a request that
 * hashes nothing or a repeat secret the cache already verified.
 */
const loadArgon2 = (): Promise<Argon2> => (argon2 ??= import('argon2').then((m) => ((m as { default?: Argon2 }).default ?? m) as Argon2));

export function createHasher(method: HashMethod): Hasher {
  const policy = hashPolicies[method];
  const hash = async (secret: string) => {
    const a = await loadArgon2();
    return a.hash(secret, { type: a.argon2id, ...policy });
  };
  const verify = async (stored: string, secret: string) => {
    const a = await loadArgon2();
    try {
      return await a.verify(stored, secret);
    } catch {
      return false;
    }
  };
  return {
    hash,
    verify,
    verifyDummy: async (secret) => {
      await verify(dummyHashes[method], secret);
    },
  };
}

import { createHasher, dummyHashes, hashPolicies } from '../../lambdas/adapters/argon2-hasher';

describe('Argon2id hasher (HASH_METHOD)', () => {
  it.each(Object.keys(hashPolicies) as (keyof typeof hashPolicies)[])(
    '%s: hashes in PHC form with its policy and verifies only the right secret',
    async (method) => {
      const hasher = createHasher(method);
      const hash = await hasher.hash('correct horse');
      const { memoryCost, timeCost, parallelism } = hashPolicies[method];
      expect(hash).toMatch(new RegExp(`^\\$argon2id\\$v=19\\$m=${memoryCost},p=${parallelism},t=${timeCost}\\$`));
      expect(await hasher.verify(hash, 'correct horse')).toBe(true);
      expect(await hasher.verify(hash, 'wrong horse')).toBe(false);
      expect(await hasher.verify('not a hash', 'x')).toBe(false);
    },
  );

  it.each(Object.keys(hashPolicies) as (keyof typeof hashPolicies)[])(
    '%s: the dummy hash for unknown ids has the policy’s parameters, so verifying it costs what a real verification costs',
    async (method) => {
      const { memoryCost, timeCost, parallelism } = hashPolicies[method];
      expect(dummyHashes[method]).toMatch(new RegExp(`^\\$argon2id\\$v=19\\$m=${memoryCost},p=${parallelism},t=${timeCost}\\$`));
      expect(await createHasher(method).verify(dummyHashes[method], 'anything')).toBe(false);
    },
  );
});

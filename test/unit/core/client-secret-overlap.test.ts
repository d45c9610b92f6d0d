import { verifyClientSecret } from '../../../lambdas/core/client-auth/client-secret';
import type { ClientAuthDependencies } from '../../../lambdas/core/client-auth/ports';
import { InvalidClientError } from '../../../lambdas/core/errors';
import type { Client } from '../../../lambdas/core/model';
import { VerifiedSecretCache } from '../../../lambdas/core/verified-secret-cache';

/** A hasher whose hash of a secret is `h:<secret>`, counting the (Argon2id) verifications. */
function setUp(nowMs: number) {
  const clock = { nowMs };
  let verifications = 0;
  const deps: ClientAuthDependencies = {
    findClient: async () => undefined,
    hasher: {
      hash: async (secret: string) => `h:${secret}`,
      verify: async (hash: string, secret: string) => {
        verifications++;
        return hash === `h:${secret}`;
      },
      verifyDummy: async () => undefined,
    },
    secretCache: new VerifiedSecretCache(),
    clock: { now: () => clock.nowMs },
    assertions: {
      verifier: { verify: async () => Promise.reject(new Error('not reached')) },
      singleUseIds: { use: async () => true },
      audiences: [],
    },
  };
  return { deps, clock, verifications: () => verifications };
}

const rotated = (overlapEndsEpoch: number) =>
  ({
    clientId: 'c1',
    type: 'confidential',
    secretHash: 'h:new',
    previousSecretHash: 'h:old',
    previousSecretExpiresAtEpoch: overlapEndsEpoch,
  }) as Client;

const presented = (secret: string) => ({ clientId: 'c1', secret, method: 'client_secret_post' as const });

test('both secrets work during the overlap, the old one never after it, even when cached (behaviour ADMIN-20)', async () => {
  const { deps, clock, verifications } = setUp(1_000_000_000);
  const client = rotated(1_000_000 + 60);
  await verifyClientSecret(client, presented('new'), deps);
  await verifyClientSecret(client, presented('old'), deps);
  const afterFirstUse = verifications();
  await verifyClientSecret(client, presented('old'), deps);
  expect(verifications()).toBe(afterFirstUse); // remembered against the old hash: no Argon2id at all
  clock.nowMs = (1_000_000 + 60) * 1000;
  await expect(verifyClientSecret(client, presented('old'), deps)).rejects.toThrow(InvalidClientError);
  await verifyClientSecret(client, presented('new'), deps);
});

test('a secret that is neither is refused during the overlap (behaviour ADMIN-20)', async () => {
  const { deps } = setUp(1_000_000_000);
  await expect(verifyClientSecret(rotated(1_000_000 + 60), presented('other'), deps)).rejects.toThrow(InvalidClientError);
});

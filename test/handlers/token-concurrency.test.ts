/**
 * Concurrency (behaviour CODE-1, REFRESH-2): two concurrent redemptions of one code, or two concurrent uses of
 * one refresh token. Exactly one succeeds (conditional transactions), the activity log
 * records both, and since a concurrent second use is a reuse (RFC 6749 4.1.2, RFC 9700
 * 4.14.2), the family the winner created is revoked.
 */
import type { User } from '../../lambdas/core/model';
import { activityOf, type Answer, introspectWith, redeem, refresh, signedIn } from '../support/token-calls';
import { createTokenClient, issueCode, type TestClient, setUpTokenFamily } from '../support/fixtures';

let environmentId: string;
let user: User;
let resourceServer: TestClient;

beforeAll(async () => {
  ({ environmentId, user, resourceServer } = await setUpTokenFamily({ introspectAll: false }));
});

function exactlyOneSucceeded(answers: Answer[]): Answer {
  expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
  expect(answers.find((a) => a.status === 400)!.body.error).toBe('invalid_grant');
  return answers.find((a) => a.status === 200)!;
}

const rounds = [1, 2, 3, 4, 5];

describe('two concurrent redemptions of one code (RFC 6749 4.1.2)', () => {
  it.each(rounds)("round %i: exactly one succeeds, both are logged, the winner's family is revoked", async () => {
    const { client } = await createTokenClient({ environmentId });
    const code = await issueCode(client, user);
    const winner = exactlyOneSucceeded(await Promise.all([redeem(client, code), redeem(client, code)]));

    const rows = await activityOf(client.clientId);
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => r.success).sort()).toEqual([false, true]);
    expect(rows.every((r) => r.requestType === 'authorization_code' && r.userId === user.id)).toBe(true);

    expect((await introspectWith(resourceServer, String(winner.body.access_token))).body).toEqual({ active: false });
    expect((await refresh(client, String(winner.body.refresh_token))).body.error).toBe('invalid_grant');
  });
});

describe('two concurrent uses of one refresh token (OAuth 2.1 4.3.1)', () => {
  it.each(rounds)('round %i: exactly one succeeds, both are logged, the family is revoked', async () => {
    const { client } = await createTokenClient({ environmentId });
    const first = await signedIn(client, user);
    const token = String(first.refresh_token);
    const winner = exactlyOneSucceeded(await Promise.all([refresh(client, token), refresh(client, token)]));

    const rows = (await activityOf(client.clientId)).filter((r) => r.requestType === 'refresh_token');
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => r.success).sort()).toEqual([false, true]);

    expect((await introspectWith(resourceServer, String(winner.body.access_token))).body).toEqual({ active: false });
    expect((await refresh(client, String(winner.body.refresh_token))).body.error).toBe('invalid_grant');
  });
});

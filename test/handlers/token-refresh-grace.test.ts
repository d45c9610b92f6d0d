/**
 * The refresh rotation grace window (behaviour REFRESH-7): a rotated refresh token presented again
 * within its window gets the successor it got the first time and a new access token; outside it,
 * once that successor was used, or once the family is revoked, it is reuse as ever (REFRESH-2,
 * RFC 9700 4.14.2). Off by default: a window of 0 changes nothing.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as keys from '../../lambdas/adapters/dynamodb/keys/item-keys';
import type { Client, User } from '../../lambdas/core/model';
import { resetContainer } from '../../lambdas/wiring/container';
import { getEnvironments, getTokenStore } from '../../lambdas/wiring/repositories';
import { getStorage } from '../../lambdas/wiring/storage';
import { DynamoFaults, touches } from '../support/dynamo-faults';
import { dpopKey } from '../support/dpop';
import { createTokenClient, createTokenUser, issueCode, redirectUri, setUpTokenFamily, type TestClient } from '../support/fixtures';
import { activityOf, claimsOf, introspectWith, issuer, postToken, refresh, signedIn, storedFor } from '../support/token-calls';

let environmentId: string;
let user: User;
let resourceServer: TestClient;

beforeAll(async () => {
  ({ environmentId, user, resourceServer } = await setUpTokenFamily());
});

afterEach(() => {
  delete process.env.REFRESH_GRACE_SECONDS;
  resetContainer();
});

const appWithWindow = async (refreshGraceSeconds?: number) =>
  (await createTokenClient({ environmentId, ...(refreshGraceSeconds !== undefined ? { refreshGraceSeconds } : {}) })).client;

const isActive = async (accessToken: unknown) => (await introspectWith(resourceServer, String(accessToken))).body.active === true;

const graceItem = async (token: string) =>
  (
    await getStorage().db.send(
      new GetCommand({ TableName: getStorage().tables.ephemeral, Key: keys.refreshGrace(token), ConsistentRead: true }),
    )
  ).Item;

/** The family is revoked: its newest refresh token and its access tokens stop working. */
async function expectRevoked(client: Client, refreshToken: unknown, accessTokens: unknown[]) {
  expect((await refresh(client, String(refreshToken))).body.error).toBe('invalid_grant');
  for (const token of accessTokens) expect(await isActive(token)).toBe(false);
}

describe('behaviour REFRESH-7: within the window, the same successor again', () => {
  it('a client whose reply was lost presents the old token again and gets the same successor and a new access token', async () => {
    const client = await appWithWindow(60);
    const first = await signedIn(client, user, { scopes: ['openid', 'read'] });
    const lost = await refresh(client, String(first.refresh_token));
    expect(lost.status).toBe(200);

    const again = await refresh(client, String(first.refresh_token));
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'openid read' });
    expect(again.body.refresh_token).toBe(lost.body.refresh_token);
    expect(claimsOf(again.body.access_token).jti).not.toBe(claimsOf(lost.body.access_token).jti);
    expect(claimsOf(again.body.access_token).sub).toBe(user.id);

    // Nothing was revoked: every access token stays active and the successor rotates.
    for (const token of [first.access_token, lost.body.access_token, again.body.access_token]) expect(await isActive(token)).toBe(true);
    expect((await refresh(client, String(again.body.refresh_token))).status).toBe(200);
    const rows = (await activityOf(client.clientId)).filter((r) => r.requestType === 'refresh_token');
    expect(rows.map((r) => r.success)).toEqual([true, true, true]);
    expect(rows[1]!.reason).toMatch(/replayed within its grace window/);
    expect(rows[0]!.reason).toBeUndefined();
  });

  it('a reply lost between the database and the server (fault injected): the retry gets the successor the lost write kept', async () => {
    const client = await appWithWindow(60);
    const first = await signedIn(client, user);
    const faults = DynamoFaults.install();
    try {
      faults.fail({ operation: 'TransactWriteItems', phase: 'after', where: (a) => touches(a, 'RT#') });
      const failed = await refresh(client, String(first.refresh_token));
      expect(failed.status).toBe(503);
      expect(failed.body).not.toHaveProperty('refresh_token');
    } finally {
      faults.uninstall();
    }
    const retried = await refresh(client, String(first.refresh_token));
    expect(retried.status).toBe(200);
    // The one successor the lost write stored, not a second one.
    expect((await storedFor(client.clientId)).refreshTokens).toBe(2);
    expect((await refresh(client, String(first.refresh_token))).body.refresh_token).toBe(retried.body.refresh_token);
    expect((await refresh(client, String(retried.body.refresh_token))).status).toBe(200);
  });

  it.each([1, 2, 3])('round %i: two concurrent refreshes of one token both get the same successor, and nothing is revoked', async () => {
    const client = await appWithWindow(60);
    const first = await signedIn(client, user);
    const [a, b] = await Promise.all([refresh(client, String(first.refresh_token)), refresh(client, String(first.refresh_token))]);
    expect([a!.status, b!.status]).toEqual([200, 200]);
    expect(a!.body.refresh_token).toBe(b!.body.refresh_token);
    expect(await isActive(a!.body.access_token)).toBe(true);
    expect(await isActive(b!.body.access_token)).toBe(true);
    expect((await storedFor(client.clientId)).refreshTokens).toBe(2);
    expect((await refresh(client, String(a!.body.refresh_token))).status).toBe(200);
  });

  it('the server-wide REFRESH_GRACE_SECONDS applies to a client without its own window', async () => {
    process.env.REFRESH_GRACE_SECONDS = '60';
    resetContainer();
    const client = await appWithWindow();
    const first = await signedIn(client, user);
    const lost = await refresh(client, String(first.refresh_token));
    expect((await refresh(client, String(first.refresh_token))).body.refresh_token).toBe(lost.body.refresh_token);
  });

  it('keeps the successor sealed, readable only with the rotated token, until the window ends', async () => {
    const client = await appWithWindow(60);
    const first = await signedIn(client, user);
    const rotatedAt = Math.floor(Date.now() / 1000);
    const lost = await refresh(client, String(first.refresh_token));
    const item = await graceItem(String(first.refresh_token));
    expect(JSON.stringify(item)).not.toContain(String(lost.body.refresh_token));
    expect(JSON.stringify(item)).not.toContain(String(first.refresh_token));
    expect(item!.ttl).toBe(item!.untilEpoch);
    expect(Number(item!.untilEpoch) - rotatedAt).toBeGreaterThanOrEqual(59);
    expect(Number(item!.untilEpoch) - rotatedAt).toBeLessThanOrEqual(61);
    // Another token cannot open it, even in the same place.
    expect(await getTokenStore().graceSuccessor(String(lost.body.refresh_token), rotatedAt)).toBeUndefined();
  });
});

describe('behaviour REFRESH-7: reuse as ever (REFRESH-2)', () => {
  it('outside the window: the replay is refused and the family revoked', async () => {
    const client = await appWithWindow(1);
    const first = await signedIn(client, user);
    const second = await refresh(client, String(first.refresh_token));
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const replay = await refresh(client, String(first.refresh_token));
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual({
      error: 'invalid_grant',
      error_description: 'The refresh token is invalid, expired, revoked, or was issued to another client.',
    });
    await expectRevoked(client, second.body.refresh_token, [first.access_token, second.body.access_token]);
    const failures = (await activityOf(client.clientId)).filter((r) => !r.success);
    expect(failures[0]!.reason).toMatch(/reused \(already rotated\)/);
  });

  it('once the successor was used, a replay within the window is reuse: refused, the family revoked', async () => {
    const client = await appWithWindow(60);
    const first = await signedIn(client, user);
    const second = await refresh(client, String(first.refresh_token));
    const third = await refresh(client, String(second.body.refresh_token));
    expect(third.status).toBe(200);
    const before = (await storedFor(client.clientId)).tokenRecords;

    const replay = await refresh(client, String(first.refresh_token));
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    expect((await storedFor(client.clientId)).tokenRecords).toBe(before);
    await expectRevoked(client, third.body.refresh_token, [second.body.access_token, third.body.access_token]);
    const failures = (await activityOf(client.clientId)).filter((r) => !r.success);
    expect(failures[0]!.reason).toMatch(/its successor already used\); family .* revoked/);
  });

  it('once the family is revoked, a replay within the window issues nothing and revives nothing', async () => {
    const client = await appWithWindow(60);
    const first = await signedIn(client, user);
    const second = await refresh(client, String(first.refresh_token));
    const familyId = (await getTokenStore().getRefreshToken(String(first.refresh_token), 0))!.familyId;
    await getTokenStore().revokeFamily(familyId, Math.floor(Date.now() / 1000));
    const before = await storedFor(client.clientId);

    const replay = await refresh(client, String(first.refresh_token));
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    expect(await storedFor(client.clientId)).toEqual(before);
    expect((await refresh(client, String(second.body.refresh_token))).body.error).toBe('invalid_grant');
    expect(await getTokenStore().isFamilyRevoked(familyId)).toBe(true);
  });

  it('another client presenting the rotated token within the window gets invalid_grant, and nothing is written or revoked', async () => {
    const client = await appWithWindow(60);
    const other = await appWithWindow(60);
    const first = await signedIn(client, user);
    const second = await refresh(client, String(first.refresh_token));
    const replay = await refresh(other, String(first.refresh_token));
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    expect((await storedFor(other.clientId)).tokenRecords).toBe(0);
    expect((await refresh(client, String(second.body.refresh_token))).status).toBe(200);
  });

  it('the user is checked again: once the user lost the environment, a replay within the window is refused and the family revoked (REFRESH-5)', async () => {
    const client = await appWithWindow(60);
    const member = await createTokenUser([environmentId]);
    const first = await signedIn(client, member);
    const second = await refresh(client, String(first.refresh_token));
    await getEnvironments().revoke(member.id, environmentId);
    const replay = await refresh(client, String(first.refresh_token));
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    const familyId = (await getTokenStore().getRefreshToken(String(first.refresh_token), 0))!.familyId;
    expect(await getTokenStore().isFamilyRevoked(familyId)).toBe(true);
    expect(await isActive(second.body.access_token)).toBe(false);
  });

  it("a client's window of 0 overrides the server's: today's reuse rule, and no successor kept", async () => {
    process.env.REFRESH_GRACE_SECONDS = '60';
    resetContainer();
    const client = await appWithWindow(0);
    const first = await signedIn(client, user);
    const second = await refresh(client, String(first.refresh_token));
    expect(await graceItem(String(first.refresh_token))).toBeUndefined();
    expect((await refresh(client, String(first.refresh_token))).body.error).toBe('invalid_grant');
    await expectRevoked(client, second.body.refresh_token, [second.body.access_token]);
  });

  it('off by default: no successor kept, and a replay revokes the family', async () => {
    const client = await appWithWindow();
    const first = await signedIn(client, user);
    const second = await refresh(client, String(first.refresh_token));
    expect(await graceItem(String(first.refresh_token))).toBeUndefined();
    expect((await refresh(client, String(first.refresh_token))).body.error).toBe('invalid_grant');
    await expectRevoked(client, second.body.refresh_token, [second.body.access_token]);
  });
});

describe('behaviour REFRESH-7 with REFRESH-8: a DPoP-bound refresh token', () => {
  it('is replayed within the window only with its key; without it, refused and nothing revoked', async () => {
    const client = await appWithWindow(60);
    const key = await dpopKey();
    const withKey = async () => ({ headers: { DPoP: await key.proof('POST', `${issuer()}/api/token`) } });
    const code = await issueCode(client, user);
    const first = await postToken(
      {
        grant_type: 'authorization_code',
        client_id: client.clientId,
        code: code.code,
        code_verifier: code.verifier,
        redirect_uri: redirectUri,
      },
      await withKey(),
    );
    const refreshToken = String(first.body.refresh_token);
    const lost = await postToken({ grant_type: 'refresh_token', client_id: client.clientId, refresh_token: refreshToken }, await withKey());
    expect(lost.status).toBe(200);

    const bare = await refresh(client, refreshToken);
    expect([bare.status, bare.body.error]).toEqual([400, 'invalid_grant']);
    const again = await postToken(
      { grant_type: 'refresh_token', client_id: client.clientId, refresh_token: refreshToken },
      await withKey(),
    );
    expect(again.status).toBe(200);
    expect(again.body.refresh_token).toBe(lost.body.refresh_token);
    expect(claimsOf(again.body.access_token).cnf).toEqual({ jkt: key.jkt });
  });
});

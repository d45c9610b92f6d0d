/**
 * After a restore (behaviour OPS-7): restored tables bring back sessions and refresh families
 * revoked since the restore point (and a restored user record brings back the password that
 * ended them), and nothing in the data tells which. SIGN_INS_NOT_BEFORE makes every session,
 * authorization code and refresh token of an earlier sign-in count for nothing, as if absent,
 * without writing anything; sign-ins after it work as before.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { loadConfig } from '../../lambdas/config/settings';
import type { Client, User } from '../../lambdas/core/model';
import { handler as authorizeHandler } from '../../lambdas/handlers/authorize';
import { handler as sessionHandler } from '../../lambdas/handlers/session';
import { handler as signInHandler } from '../../lambdas/handlers/sign-in';
import { resetContainer } from '../../lambdas/wiring/container';
import { getTokenStore } from '../../lambdas/wiring/repositories';
import { getStorage } from '../../lambdas/wiring/storage';
import { createClient, issueCode, createUserWithPassword, type TestUser, unique } from '../support/fixtures';
import { ephemeralItems } from '../support/account';
import { authorizeQuery, browserHeaders, cookieOf, form, locationOf } from '../support/authorization';
import { apiGatewayEvent, lambdaContext } from '../support/events';
import { redeem, refresh } from '../support/token-calls';

const hourAgo = () => Math.floor(Date.now() / 1000) - 3600;

let environmentId: string;
let client: Client;
let who: TestUser;

beforeAll(async () => {
  environmentId = unique('env_');
  client = await createClient({ kind: 'app', environmentId, grantTypes: ['authorization_code', 'refresh_token'] });
  who = await createUserWithPassword({ environments: [environmentId] });
});

afterEach(() => {
  delete process.env.SIGN_INS_NOT_BEFORE;
  resetContainer();
});

/** The cutoff an operator sets after a restore: here ten minutes ago, after the old sign-ins. */
function restoreCutoff(): void {
  process.env.SIGN_INS_NOT_BEFORE = new Date(Date.now() - 600_000).toISOString();
  resetContainer();
}

/** A code as the consent step saves it, for a sign-in at `authTime`. */
const codeOf = (user: User, authTime: number) => issueCode(client, user, { scopes: ['openid'], authTime });

async function signIn(): Promise<string> {
  const page = await signInHandler(
    apiGatewayEvent({
      method: 'POST',
      path: '/api/auth/signin',
      headers: browserHeaders(),
      body: form({ email: who.user.email!, password: who.password }),
    }),
    lambdaContext,
  );
  return cookieOf(page);
}

/** Moves the user's stored sessions back to a sign-in an hour ago (a session of the restored data). */
async function sessionsSignedInAnHourAgo(): Promise<void> {
  const { db, tables } = getStorage();
  for (const item of (await ephemeralItems('SESSION#')).filter((i) => i.userId === who.user.id)) {
    await db.send(
      new UpdateCommand({
        TableName: tables.ephemeral,
        Key: { pk: item.pk, sk: item.sk },
        UpdateExpression: 'SET authTime = :t',
        ExpressionAttributeValues: { ':t': hourAgo() },
      }),
    );
  }
}

const whoIsSignedIn = (cookie: string) =>
  sessionHandler(apiGatewayEvent({ path: '/api/auth/session', headers: { Cookie: cookie } }), lambdaContext);

describe('SIGN_INS_NOT_BEFORE: what rests on an earlier sign-in counts for nothing (behaviour OPS-7)', () => {
  it('a session: no session at the session endpoint, login_required at the authorization endpoint; the item is left as it was', async () => {
    const cookie = await signIn();
    await sessionsSignedInAnHourAgo();
    expect((await whoIsSignedIn(cookie)).statusCode).toBe(200);

    restoreCutoff();
    expect((await whoIsSignedIn(cookie)).statusCode).toBe(401);
    const authorize = await authorizeHandler(
      apiGatewayEvent({
        path: '/api/authorize',
        query: authorizeQuery(client, { prompt: 'none' }),
        headers: { Accept: 'text/html', Cookie: cookie },
      }),
      lambdaContext,
    );
    expect(authorize.statusCode).toBe(303);
    expect(locationOf(authorize).searchParams.get('error')).toBe('login_required');
    expect((await ephemeralItems('SESSION#')).filter((i) => i.userId === who.user.id).length).toBeGreaterThan(0);
  });

  it('an authorization code: 400 invalid_grant, and it is not used up', async () => {
    const code = await codeOf(who.user, hourAgo());
    restoreCutoff();
    const refused = await redeem(client, code);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_grant');
    // Nothing was written: without the cutoff the same code still redeems.
    delete process.env.SIGN_INS_NOT_BEFORE;
    resetContainer();
    expect((await redeem(client, code)).status).toBe(200);
  });

  it('a refresh token: 400 invalid_grant; neither rotated nor its family revoked (a fact of the restore, not of the token)', async () => {
    const issued = await redeem(client, await codeOf(who.user, hourAgo()));
    expect(issued.status).toBe(200);
    const refreshToken = String(issued.body.refresh_token);

    restoreCutoff();
    const refused = await refresh(client, refreshToken);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_grant');
    const stored = await getTokenStore().getRefreshToken(refreshToken, Math.floor(Date.now() / 1000));
    expect(stored?.rotatedAtEpoch).toBeUndefined();
    expect(await getTokenStore().isFamilyRevoked(stored!.familyId)).toBe(false);
  });

  it('sign-ins after it work as before: a new session, a new code and its refresh token', async () => {
    restoreCutoff();
    const cookie = await signIn();
    expect((await whoIsSignedIn(cookie)).statusCode).toBe(200);
    const issued = await redeem(client, await codeOf(who.user, Math.floor(Date.now() / 1000)));
    expect(issued.status).toBe(200);
    expect((await refresh(client, String(issued.body.refresh_token))).status).toBe(200);
  });
});

describe('SIGN_INS_NOT_BEFORE is validated with the other settings (behaviour OPS-7, CONFIG-1)', () => {
  const base = { BASE_URL: 'https://auth.example.org', JWKS_CDN_BASE_URL: 'https://keys.example.org', MAIL_FROM: 'a@example.org' };

  it('an ISO 8601 time that has passed, read as epoch seconds; unset is none', () => {
    expect(loadConfig({ ...base, SIGN_INS_NOT_BEFORE: '2026-01-02T03:04:05Z' }).signInsNotBefore).toBe(
      Date.UTC(2026, 0, 2, 3, 4, 5) / 1000,
    );
    expect(loadConfig({ ...base, SIGN_INS_NOT_BEFORE: '2026-01-02T04:04:05+01:00' }).signInsNotBefore).toBe(
      Date.UTC(2026, 0, 2, 3, 4, 5) / 1000,
    );
    expect(loadConfig(base).signInsNotBefore).toBeUndefined();
  });

  it('refused: not a time, or a time to come (every sign-in until then, the new ones too, would count for nothing)', () => {
    expect(() => loadConfig({ ...base, SIGN_INS_NOT_BEFORE: 'yesterday' })).toThrow(
      /SIGN_INS_NOT_BEFORE must be an ISO 8601 time that has passed/,
    );
    const nextHour = new Date(Date.now() + 3600_000).toISOString();
    expect(() => loadConfig({ ...base, SIGN_INS_NOT_BEFORE: nextHour })).toThrow(
      /SIGN_INS_NOT_BEFORE must be an ISO 8601 time that has passed/,
    );
  });
});

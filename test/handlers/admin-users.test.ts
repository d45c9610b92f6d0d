/** /api/admin/users: create, list, get, update, delete. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { handler as createUser } from '../../lambdas/handlers/admin/users-create';
import { handler as deleteUser } from '../../lambdas/handlers/admin/users-delete';
import { handler as getUser } from '../../lambdas/handlers/admin/users-get';
import { handler as listUsers } from '../../lambdas/handlers/admin/users-list';
import { handler as updateUser } from '../../lambdas/handlers/admin/users-update';
import { verifyAccessToken } from '../../lambdas/http/bearer';
import { getHasher, getSessions, getTokenStore, getUsers } from '../../lambdas/wiring/repositories';
import { getStorage } from '../../lambdas/wiring/storage';
import { callAdmin, ensureScopes } from '../support/admin-calls';
import { jsonBody } from '../support/events';
import { adminClientToken, attemptOf, createClient, issueAccessToken, uniqueSuffix } from '../support/fixtures';
import { getBearerDependencies } from '../../lambdas/wiring/bearer';

let token: string;
beforeAll(async () => {
  await ensureScopes('openid', 'admin');
  token = (await adminClientToken()).token;
});

const create = (body: unknown) => callAdmin(createUser, { token, method: 'POST', body });
const storedUser = async (id: string) =>
  (await getStorage().db.send(new GetCommand({ TableName: getStorage().tables.main, Key: { pk: `USER#${id}`, sk: 'USER' } }))).Item;

describe('POST /api/admin/users', () => {
  it('creates a user, stores the password only as an Argon2id hash and never returns it', async () => {
    const email = `Ada-${uniqueSuffix()}@Example.TEST`;
    const result = await create({ name: 'Ada', email, password: 'correct horse battery', admin: true });
    expect(result.statusCode).toBe(201);
    const body = jsonBody(result);
    expect(body).toMatchObject({ name: 'Ada', email: email.toLowerCase(), admin: true, test: false, has_password: true, updated_at: null });
    expect(String(body.id)).toMatch(/^usr_/);
    expect(result.body).not.toMatch(/argon2|password_hash|passwordHash/i);
    const item = await storedUser(String(body.id));
    expect(String(item?.passwordHash)).toMatch(/^\$argon2id\$/);
    expect(await getHasher().verify(String(item?.passwordHash), 'correct horse battery')).toBe(true);
  });

  it('creates a user without email or password', async () => {
    const result = await create({ name: 'Service account' });
    expect(result.statusCode).toBe(201);
    expect(jsonBody(result)).toMatchObject({ email: null, has_password: false, admin: false });
  });

  it('answers a duplicate email, in any letter case, with 409 and writes nothing', async () => {
    const email = `dup-${uniqueSuffix()}@example.test`;
    expect((await create({ name: 'First', email })).statusCode).toBe(201);
    const result = await create({ name: 'Second', email: email.toUpperCase() });
    expect(result.statusCode).toBe(409);
    expect(jsonBody(result)).toEqual({ error: 'invalid_request', error_description: `A user with the email "${email}" already exists.` });
    expect((await getUsers().findByEmail(email))?.name).toBe('First');
  });

  it.each([
    ['a missing name', { email: 'x@example.test' }, /^name: expected string/],
    ['a malformed email', { name: 'A', email: 'not-an-email' }, /^email: must be an email address/],
    ['a short password', { name: 'A', password: 'short' }, /^password: must have at least 8 characters/],
    ['an unknown field', { name: 'A', passwordHash: 'x' }, /unknown field "passwordHash"/],
    ['a non-boolean admin flag', { name: 'A', admin: 'yes' }, /^admin: expected boolean/],
  ])('answers %s with 400 invalid_request naming the field', async (_what, body, description) => {
    const result = await create(body);
    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).error).toBe('invalid_request');
    expect(String(jsonBody(result).error_description)).toMatch(description);
  });

  it('answers truncated JSON with 400, and a request without a JSON content type with 415', async () => {
    expect((await create('{"name":')).statusCode).toBe(400);
    const noBody = await callAdmin(createUser, { token, method: 'POST' });
    expect(noBody.statusCode).toBe(415);
  });
});

describe('GET /api/admin/users and /api/admin/users/{user_id}', () => {
  it('gets a user by id, and answers an unknown id with 404 not_found', async () => {
    const id = String(jsonBody(await create({ name: 'Grace' })).id);
    const found = await callAdmin(getUser, { token, pathParameters: { user_id: id } });
    expect(found.statusCode).toBe(200);
    expect(jsonBody(found)).toMatchObject({ id, name: 'Grace' });
    const missing = await callAdmin(getUser, { token, pathParameters: { user_id: 'usr_nobody' } });
    expect(missing.statusCode).toBe(404);
    expect(jsonBody(missing).error).toBe('not_found');
  });

  it('pages through users with limit and an opaque next_cursor', async () => {
    await create({ name: 'Page one' });
    await create({ name: 'Page two' });
    const first = jsonBody(await callAdmin(listUsers, { token, query: { limit: '1' } }));
    expect(first.items).toHaveLength(1);
    expect(typeof first.next_cursor).toBe('string');
    const second = jsonBody(await callAdmin(listUsers, { token, query: { limit: '1', cursor: String(first.next_cursor) } }));
    expect(second.items).toHaveLength(1);
    expect((second.items as { id: string }[])[0]!.id).not.toBe((first.items as { id: string }[])[0]!.id);
    expect(JSON.stringify(first)).not.toMatch(/argon2/);
  });

  it.each([['0'], ['101'], ['ten'], ['-1']])('answers limit=%s with 400', async (limit) => {
    const result = await callAdmin(listUsers, { token, query: { limit } });
    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).error).toBe('invalid_request');
  });

  it('answers a forged cursor with 400, not 500', async () => {
    const forged = [
      { gsi1pk: 'CLIENTS#static', gsi1sk: 'x', pk: 'x', sk: 'x' }, // another list
      { gsi1pk: 'USERS', gsi1sk: '', pk: '', sk: '' }, // empty key values (a DynamoDB ValidationException)
      { gsi1pk: 'USERS', gsi1sk: 'x'.repeat(1100), pk: 'x', sk: 'x' }, // a sort key over 1024 bytes
    ];
    for (const key of forged) {
      const result = await callAdmin(listUsers, { token, query: { cursor: Buffer.from(JSON.stringify(key)).toString('base64url') } });
      expect(result.statusCode).toBe(400);
    }
  });
});

describe('PATCH /api/admin/users/{user_id}', () => {
  const patch = (id: string, body: unknown) => callAdmin(updateUser, { token, method: 'PATCH', pathParameters: { user_id: id }, body });

  it('updates name, email, flags and password; the old email is free again', async () => {
    const oldEmail = `old-${uniqueSuffix()}@example.test`;
    const id = String(jsonBody(await create({ name: 'Before', email: oldEmail })).id);
    const newEmail = `new-${uniqueSuffix()}@example.test`;
    const result = await patch(id, { name: 'After', email: newEmail, admin: true, test: true, password: 'a new password' });
    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toMatchObject({ id, name: 'After', email: newEmail, admin: true, test: true, has_password: true });
    expect(jsonBody(result).updated_at).toEqual(expect.any(String));
    expect(await getHasher().verify(String((await storedUser(id))?.passwordHash), 'a new password')).toBe(true);
    expect(await getUsers().findByEmail(oldEmail)).toBeUndefined();
    expect((await create({ name: 'Reuser', email: oldEmail })).statusCode).toBe(201);
  });

  it("answers changing to another user's email with 409 and changes nothing", async () => {
    const taken = `taken-${uniqueSuffix()}@example.test`;
    await create({ name: 'Holder', email: taken });
    const id = String(jsonBody(await create({ name: 'Mover' })).id);
    const result = await patch(id, { name: 'Renamed', email: taken });
    expect(result.statusCode).toBe(409);
    expect(jsonBody(await callAdmin(getUser, { token, pathParameters: { user_id: id } })).name).toBe('Mover');
  });

  it('answers an empty body with 400, an unknown user with 404', async () => {
    const id = String(jsonBody(await create({ name: 'Idle' })).id);
    expect((await patch(id, {})).statusCode).toBe(400);
    expect((await patch('usr_nobody', { name: 'x' })).statusCode).toBe(404);
  });
});

/**
 * A live sign-in of the user: a session, and a code redemption as the token endpoint does it,
 * which creates the user's refresh family.
 */
async function signedInEverywhere(userId: string): Promise<{ sessionId: string; familyId: string; clientId: string; nowEpoch: number }> {
  const sessions = getSessions();
  const tokens = getTokenStore();
  const nowEpoch = Math.floor(Date.now() / 1000);
  const sessionId = `session-${uniqueSuffix()}`;
  await sessions.createSession(sessionId, { userId, authTime: nowEpoch, expiresAtEpoch: nowEpoch + 3600 }, new Date().toISOString());
  const client = await createClient({
    type: 'public',
    grantTypes: ['authorization_code', 'refresh_token'],
    redirectUris: ['https://a.example.test/cb'],
  });
  const code = `code-${uniqueSuffix()}`;
  const familyId = `fam_${uniqueSuffix()}`;
  const grant = { clientId: client.clientId, userId, scopes: ['openid'], authTime: nowEpoch };
  await tokens.saveCode(code, { ...grant, redirectUri: 'https://a.example.test/cb', codeChallenge: 'x', expiresAtEpoch: nowEpoch + 300 });
  await tokens.redeemCode(
    code,
    { familyId, expiresAtEpoch: nowEpoch + 3600, credentialVersion: 0 },
    {
      token: { jti: `at_${uniqueSuffix()}`, clientId: client.clientId, sub: userId, familyId, expiresAtEpoch: nowEpoch + 3600 },
      activity: {
        requestType: 'authorization_code',
        clientId: client.clientId,
        ip: '203.0.113.7',
        success: true,
        durationMs: 1,
        ...attemptOf(),
      },
      refresh: { token: `rt-${uniqueSuffix()}`, value: { ...grant, familyId, expiresAtEpoch: nowEpoch + 3600 } },
    },
  );
  return { sessionId, familyId, clientId: client.clientId, nowEpoch };
}

describe('PATCH /api/admin/users/{user_id} with a new password', () => {
  it('ends the user’s sessions and revokes their refresh families: a reset locks out whoever knew the old one', async () => {
    const sessions = getSessions();
    const tokens = getTokenStore();
    const id = String(
      jsonBody(await create({ name: 'Reset', email: `reset-${uniqueSuffix()}@example.test`, password: 'old-password-1' })).id,
    );
    const { sessionId, familyId, nowEpoch } = await signedInEverywhere(id);

    const renamed = await callAdmin(updateUser, { token, method: 'PATCH', pathParameters: { user_id: id }, body: { name: 'Renamed' } });
    expect(renamed.statusCode).toBe(200);
    expect(await sessions.getSession(sessionId, nowEpoch)).toBeDefined(); // other changes keep sign-ins

    const reset = await callAdmin(updateUser, {
      token,
      method: 'PATCH',
      pathParameters: { user_id: id },
      body: { password: 'new-password-2' },
    });
    expect(reset.statusCode).toBe(200);
    expect(await sessions.getSession(sessionId, nowEpoch)).toBeUndefined();
    expect(await tokens.isFamilyRevoked(familyId)).toBe(true);
  });
});

describe('DELETE /api/admin/users/{user_id}', () => {
  it("removes the user, ends their sessions and revokes their refresh token families and those tokens' access", async () => {
    const sessions = getSessions();
    const tokens = getTokenStore();
    const users = getUsers();
    const email = `gone-${uniqueSuffix()}@example.test`;
    const id = String(jsonBody(await create({ name: 'Leaving', email })).id);
    const { sessionId, familyId, clientId, nowEpoch } = await signedInEverywhere(id);
    const issued = await issueAccessToken({ clientId, sub: id, scopes: ['openid'], familyId });
    expect(await tokens.isFamilyRevoked(familyId)).toBe(false);

    const result = await callAdmin(deleteUser, { token, method: 'DELETE', pathParameters: { user_id: id } });
    expect(result.statusCode).toBe(204);
    expect(result.body).toBe('');
    expect(await users.get(id)).toBeUndefined();
    expect(await users.findByEmail(email)).toBeUndefined();
    expect(await sessions.getSession(sessionId, nowEpoch)).toBeUndefined();
    expect(await tokens.isFamilyRevoked(familyId)).toBe(true);
    // The access token of that family is refused at once by bearer authentication.
    await expect(verifyAccessToken(issued.token, getBearerDependencies())).rejects.toMatchObject({ code: 'invalid_token' });
  });

  it('answers an unknown user with 404', async () => {
    const result = await callAdmin(deleteUser, { token, method: 'DELETE', pathParameters: { user_id: 'usr_nobody' } });
    expect(result.statusCode).toBe(404);
  });
});

describe('oversized ids in the path', () => {
  it('answers 404, never a 500 (DynamoDB refuses keys over 2048 bytes)', async () => {
    const result = await callAdmin(getUser, { token, pathParameters: { user_id: 'u'.repeat(2100) } });
    expect(result.statusCode).toBe(404);
  });
});

/**
 * What a user's deletion stops at this server's bearer endpoints, exactly as behaviour BEARER-1
 * says (it once claimed every token of a deleted user stopped at once): the tokens
 * of a sign-in stop everywhere (their family is revoked); key-minted ones are not recalled, so
 * validate answers them active for the rest of their hour, while userinfo and the admin API
 * refuse them, and no new one is minted (the keys are gone).
 */
import { handler as deleteUser } from '../../lambdas/handlers/admin/users-delete';
import { handler as userinfo } from '../../lambdas/handlers/userinfo';
import { handler as validateToken } from '../../lambdas/handlers/validate-token';
import { callAdmin, ensureScopes } from '../support/admin-calls';
import { createKeyAs, exchangeKey, listKeysAs, useOutbox } from '../support/api-keys';
import { apiGatewayEvent, lambdaContext } from '../support/events';
import { signedIn } from '../support/token-calls';
import { adminClientToken, createEnvironment, createTokenClient, createTokenUser } from '../support/fixtures';

useOutbox();

const get = (handler: typeof userinfo, path: string, token: string) =>
  handler(apiGatewayEvent({ path, headers: { Authorization: `Bearer ${token}` } }), lambdaContext);

it('behaviour BEARER-1, ADMIN-7: after the delete, sign-in tokens stop at once; key-minted tokens stay active at validate, refused by userinfo and the admin API', async () => {
  await ensureScopes('openid', 'admin');
  const admin = (await adminClientToken()).token;
  const environmentId = await createEnvironment();
  const user = await createTokenUser([environmentId]);
  const { client } = await createTokenClient({ environmentId, scopes: ['openid'] });
  const signIn = await signedIn(client, user, { scopes: ['openid'] });
  const created = await createKeyAs(admin, client.clientId, { userId: user.id });
  expect(created.status).toBe(201);
  const exchanged = await exchangeKey({ bearer: String(created.body.api_key) });
  expect(exchanged.status).toBe(200);
  const keyToken = String(exchanged.body.access_token);

  expect((await callAdmin(deleteUser, { token: admin, method: 'DELETE', pathParameters: { user_id: user.id } })).statusCode).toBe(204);

  expect((await get(validateToken, '/api/token/validate', String(signIn.access_token))).statusCode).toBe(401);
  expect((await get(userinfo, '/api/userinfo', String(signIn.access_token))).statusCode).toBe(401);

  const validated = await get(validateToken, '/api/token/validate', keyToken);
  expect(validated.statusCode).toBe(200);
  expect(JSON.parse(validated.body)).toMatchObject({ active: true, sub: user.id });
  expect((await get(userinfo, '/api/userinfo', keyToken)).statusCode).toBe(401);
  // Not even the key routes of its own client: a key-minted token is never self-service (behaviour KEYM-2).
  expect((await listKeysAs(keyToken, client.clientId)).status).toBe(403);
  expect((await exchangeKey({ bearer: String(created.body.api_key) })).status).toBe(401);
});

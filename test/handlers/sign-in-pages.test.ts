/**
 * What the sign-in pages show around their forms: the site's title on every page of a sign-in,
 * the mailed code's pages and a refused form included (behaviour SITE-4), and, within an
 * authorization, which application asks (AUTHZ-20). On tables of this file's own: the title is
 * one setting per deployment.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyResult } from 'aws-lambda';
import * as keys from '../../lambdas/adapters/dynamodb/keys/item-keys';
import type { Client } from '../../lambdas/core/model';
import { handler as updateSettings } from '../../lambdas/handlers/admin/settings-update';
import { handler as authorizeHandler } from '../../lambdas/handlers/authorize';
import { handler as signInStepHandler } from '../../lambdas/handlers/authorize-sign-in';
import { handler as signInHandler } from '../../lambdas/handlers/sign-in';
import { handler as signInCodeHandler } from '../../lambdas/handlers/sign-in-code';
import { handler as resendHandler } from '../../lambdas/handlers/sign-in-code-resend';
import { handler as signInPageHandler } from '../../lambdas/handlers/sign-in-page';
import { getSite } from '../../lambdas/wiring/site';
import { getStorage } from '../../lambdas/wiring/storage';
import { callAdmin, ensureScopes } from '../support/admin-calls';
import { useOutbox } from '../support/api-keys';
import { authorizeQuery, browserHeaders, form, hiddenField } from '../support/authorization';
import { apiGatewayEvent, lambdaContext } from '../support/events';
import { adminClientToken, createClient, createUserWithPassword, type TestUser, testFileEnvironment } from '../support/fixtures';
import { useOwnTables } from '../support/own-tables';
import { postSignIn, signInChallenge } from '../support/passkeys';
import { SoftAuthenticator } from '../support/webauthn';

useOwnTables();
useOutbox();

const title = 'Acme <Sign-in> & Co';
const brandHeader = '<header class="brand"><span>Acme &lt;Sign-in&gt; &amp; Co</span></header>';
const hostileName = `<script>alert("x")</script> & 'Friends'`;
const escapedName = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Friends&#39;';

let admin: TestUser;
let staticClient: Client;
let dynamicClient: Client;
beforeAll(async () => {
  await ensureScopes('openid', 'profile', 'admin');
  const { token } = await adminClientToken();
  expect((await callAdmin(updateSettings, { token, method: 'PATCH', body: { title } })).statusCode).toBe(200);
  const environmentId = await testFileEnvironment();
  // An admin: the default MFA policy (`admins`) asks for the mailed code after the password.
  admin = await createUserWithPassword({ admin: true, environments: [environmentId] });
  staticClient = await createClient({ kind: 'app', name: 'Reports', environmentId, scopes: ['openid', 'profile'] });
  dynamicClient = await createClient({
    kind: 'app',
    name: hostileName,
    registrationType: 'dynamic',
    environmentId,
    redirectUris: ['http://127.0.0.1:8765/callback'],
    scopes: ['openid', 'profile'],
  });
});

// As in a container that has not read the settings yet: each page reads the title itself.
beforeEach(() => getSite().forget());

const post = (handler: typeof signInHandler, path: string, fields: Record<string, string>) =>
  handler(apiGatewayEvent({ method: 'POST', path, headers: browserHeaders(), body: form(fields) }), lambdaContext);
const authorize = (client: Client) =>
  authorizeHandler(
    apiGatewayEvent({ path: '/api/authorize', query: authorizeQuery(client), headers: { Accept: 'text/html' } }),
    lambdaContext,
  );
const codePage = () => post(signInHandler, '/api/auth/signin', { email: admin.user.email!, password: admin.password });

function expectBranded(result: APIGatewayProxyResult, status: number): void {
  expect(result.statusCode).toBe(status);
  expect(result.body).toContain(brandHeader);
  expect(result.body).not.toContain('<!--brand-->');
}

describe('every page of a sign-in carries the site title (behaviour SITE-4)', () => {
  it('the code page after a right password', async () => {
    const result = await codePage();
    expectBranded(result, 200);
    expect(result.body).toContain('<h1>Enter your code</h1>');
  });

  it('the code page after a wrong code, and after asking for a new code', async () => {
    const challengeId = hiddenField((await codePage()).body, 'challenge_id');
    const wrong = await post(signInCodeHandler, '/api/auth/otp', { challenge_id: challengeId, code: '000000' });
    expectBranded(wrong, 400);
    expect(wrong.body).toContain('That code is not right.');
    // As a minute later: the user's send slot (behaviour MFA-7) is free again.
    const { db, tables } = getStorage();
    await db.send(new DeleteCommand({ TableName: tables.ephemeral, Key: keys.sendRate(`OTP#${admin.user.id}`) }));
    const resent = await post(resendHandler, '/api/auth/otp/resend', { challenge_id: challengeId });
    expectBranded(resent, 200);
    expect(resent.body).toContain('We sent a new code.');
  });

  it('the page of a code that is spent or unknown, from the code form and from "Send a new code"', async () => {
    const unknown = 'x'.repeat(43);
    const spent = await post(signInCodeHandler, '/api/auth/otp', { challenge_id: unknown, code: '000000' });
    expectBranded(spent, 400);
    expect(spent.body).toContain('<h1>Sign in again</h1>');
    const resend = await post(resendHandler, '/api/auth/otp/resend', { challenge_id: unknown });
    expectBranded(resend, 400);
    expect(resend.body).toContain('<h1>Sign in again</h1>');
  });

  it('the sign-in form again after a wrong password, on its own and within an authorization', async () => {
    const refused = await post(signInHandler, '/api/auth/signin', { email: admin.user.email!, password: 'wrong password' });
    expectBranded(refused, 401);
    const requestId = hiddenField((await authorize(staticClient)).body, 'request_id');
    const refusedInAuthorization = await post(signInStepHandler, '/api/authorize', {
      request_id: requestId,
      email: admin.user.email!,
      password: 'wrong password',
    });
    expectBranded(refusedInAuthorization, 401);
  });

  it('the sign-in form again after a refused passkey', async () => {
    const unknownPasskey = new SoftAuthenticator(process.env.BASE_URL!, new URL(process.env.BASE_URL!).hostname);
    const refused = await postSignIn(unknownPasskey.assert({ challenge: await signInChallenge() }));
    expectBranded(refused, 401);
    expect(refused.body).toContain('That passkey could not sign you in.');
  });
});

describe('the sign-in step names the application that asks (behaviour AUTHZ-20)', () => {
  it('an admin-created client by its name, with no warning', async () => {
    const page = await authorize(staticClient);
    expectBranded(page, 200);
    expect(page.body).toContain('<p id="continuing-to">Sign in to continue to <strong>Reports</strong></p>');
    expect(page.body).not.toContain('registered itself');
  });

  it('a self-registered client by its name, escaped, marked as unvetted; the same after a wrong password', async () => {
    const page = await authorize(dynamicClient);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`Sign in to continue to <strong>${escapedName}</strong>`);
    expect(page.body).not.toContain('<script>');
    expect(page.body).toMatch(
      /<p class="warning" id="self-registered">This application registered itself with this server\. It has not been reviewed or vetted/,
    );
    const refused = await post(signInStepHandler, '/api/authorize', {
      request_id: hiddenField(page.body, 'request_id'),
      email: admin.user.email!,
      password: 'wrong password',
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.body).toContain(`Sign in to continue to <strong>${escapedName}</strong>`);
    expect(refused.body).toContain('id="self-registered"');
  });

  it('the sign-in page outside an authorization names no application', async () => {
    const page = await signInPageHandler(apiGatewayEvent({ path: '/api/auth/signin', headers: { Accept: 'text/html' } }), lambdaContext);
    expectBranded(page, 200);
    expect(page.body).not.toContain('continue to');
  });
});

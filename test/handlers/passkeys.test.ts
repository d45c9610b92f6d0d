/**
 * Passkeys (behaviour PASSKEY-1..PASSKEY-9; WebAuthn L3 7.1, 7.2): the passkeys page
 * and its recent-sign-in guard, registration and sign-in with a software authenticator
 * (test/support/webauthn.ts), every refusal alike and with nothing written, single-use and
 * expiring ceremonies, removal, the admin API, user deletion, and the RP ID setting.
 * Against DynamoDB Local, mail in the outbox; issuer https://auth.example.test.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { randomBytes } from 'node:crypto';
import { handler as authorizeHandler } from '../../lambdas/handlers/authorize';
import { handler as listPasskeysAdmin } from '../../lambdas/handlers/admin/user-passkeys-list';
import { handler as removePasskeyAdmin } from '../../lambdas/handlers/admin/user-passkeys-remove';
import { handler as registerHandler } from '../../lambdas/handlers/passkey-register';
import { handler as removeHandler } from '../../lambdas/handlers/passkey-remove';
import { handler as optionsHandler } from '../../lambdas/handlers/passkey-sign-in-options';
import { handler as signInHandler } from '../../lambdas/handlers/passkey-sign-in';
import { handler as passwordSignIn } from '../../lambdas/handlers/sign-in';
import { handler as authorizeSignIn } from '../../lambdas/handlers/authorize-sign-in';
import { deleteUser } from '../../lambdas/core/admin/users';
import { loadConfig } from '../../lambdas/config/settings';
import type { Client } from '../../lambdas/core/model';
import { getAdmin } from '../../lambdas/wiring/admin';
import { getPasskeys, getPasskeyStore } from '../../lambdas/wiring/passkeys';
import { getSessions } from '../../lambdas/wiring/repositories';
import { callAdmin, testAdminActor } from '../support/admin-calls';
import { useOutbox } from '../support/api-keys';
import { ephemeralItems, mailsTo, sessionsOf } from '../support/account';
import { authorizeQuery, browserHeaders, hiddenField } from '../support/authorization';
import { apiGatewayEvent, headerOf, jsonBody, lambdaContext } from '../support/events';
import { SoftAuthenticator } from '../support/webauthn';
import {
  creationOptionsOf,
  passkeysPage,
  postForm,
  postRegistration,
  postSignIn,
  registrationChallenge,
  signedIn,
  signInChallenge,
  withCookie,
} from '../support/passkeys';
import { adminClientToken, createClient, createUserWithPassword, grantEnvironment, type TestUser, unique } from '../support/fixtures';

const outbox = useOutbox();
const issuer = process.env.BASE_URL!;
const rpId = new URL(issuer).hostname;
const nowEpoch = () => Math.floor(Date.now() / 1000);

const post = postForm;
const getPage = passkeysPage;

/** A user with a registered passkey on a software authenticator. */
async function userWithPasskey(): Promise<{ who: TestUser; cookie: string; authenticator: SoftAuthenticator }> {
  const who = await createUserWithPassword();
  const cookie = await signedIn(who);
  const authenticator = new SoftAuthenticator(issuer, rpId);
  const added = await postRegistration(cookie, authenticator.register({ challenge: await registrationChallenge(cookie) }));
  expect(added.statusCode).toBe(303);
  expect(headerOf(added, 'location')).toBe('/api/users/passkey?done=added');
  return { who, cookie, authenticator };
}

const passkeysOf = (who: TestUser) => getPasskeyStore().listOf(who.user.id);

describe('the passkeys page (behaviour PASSKEY-1, PASSKEY-2)', () => {
  it('without a session, or with a sign-in older than 10 minutes, sends the browser to sign in again and back', async () => {
    const who = await createUserWithPassword();
    for (const cookie of [undefined, await signedIn(who, 11 * 60)]) {
      const page = await getPage(cookie);
      expect(page.statusCode).toBe(303);
      expect(headerOf(page, 'location')).toBe('/api/auth/signin?return_to=%2Fapi%2Fusers%2Fpasskey');
    }
  });

  it('offers registration options: resident key and user verification required, no attestation, RP ID = issuer host, 256-bit challenge stored only as a digest', async () => {
    const who = await createUserWithPassword();
    const page = await getPage(await signedIn(who));
    expect(page.statusCode).toBe(200);
    const options = creationOptionsOf(page);
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    expect(options.attestation).toBe('none');
    expect(options.rp.id).toBe('auth.example.test');
    expect(options.excludeCredentials).toEqual([]);
    expect(Buffer.from(options.challenge, 'base64url')).toHaveLength(32);
    expect(Buffer.from(options.user.id, 'base64url').toString()).toBe(who.user.id);
    const ceremonies = (await ephemeralItems('WEBAUTHN#')).filter((item) => item.userId === who.user.id);
    expect(ceremonies).toHaveLength(1);
    expect(JSON.stringify(ceremonies[0])).not.toContain(options.challenge);
    expect(Number(ceremonies[0]!.ttl) - nowEpoch()).toBeGreaterThan(290);
    expect(Number(ceremonies[0]!.ttl) - nowEpoch()).toBeLessThanOrEqual(300);
    // CSP: only the page's own nonce'd script runs, and it may fetch only from this origin.
    const csp = headerOf(page, 'content-security-policy')!;
    const nonce = /script-src 'nonce-([A-Za-z0-9_-]{43})'/.exec(csp)?.[1];
    expect(nonce).toBeDefined();
    expect(csp).toContain("connect-src 'self'");
    expect(page.body.match(/<script/g)).toHaveLength(1);
    expect(page.body).toContain(`<script nonce="${nonce}">`);
  });
});

describe('registration (behaviour PASSKEY-2, PASSKEY-4, PASSKEY-5; WebAuthn 7.1)', () => {
  it('a verified registration stores the passkey, mails the user, lists it and excludes it from the next options', async () => {
    const { who, cookie, authenticator } = await userWithPasskey();
    const stored = await passkeysOf(who);
    expect(stored).toEqual([expect.objectContaining({ credentialId: authenticator.id, userId: who.user.id, counter: 0, backedUp: false })]);
    expect(mailsTo(outbox, who.user.email!).map((m) => m.subject)).toEqual(['A passkey was added to your account']);
    const page = await getPage(cookie);
    expect(page.body).toContain(`name="credential_id" value="${authenticator.id}"`);
    expect(creationOptionsOf(page).excludeCredentials.map((c) => c.id)).toEqual([authenticator.id]);
  });

  it('a wrong password keeps offering the passkey, on /api/auth/signin and inside an authorization, its script allowed by the CSP nonce', async () => {
    const environmentId = unique('env_');
    const client: Client = await createClient({ kind: 'app', environmentId });
    const { who } = await userWithPasskey();
    const authorizePage = await authorizeHandler(
      apiGatewayEvent({ path: '/api/authorize', query: authorizeQuery(client, {}), headers: { Accept: 'text/html' } }),
      lambdaContext,
    );
    const requestId = hiddenField(authorizePage.body, 'request_id');
    const wrongPassword = { email: who.user.email!, password: 'not-the-password' };
    const failures = [
      await post(passwordSignIn, '/api/auth/signin', wrongPassword),
      await post(authorizeSignIn, '/api/authorize', { ...wrongPassword, request_id: requestId }),
    ];
    for (const page of failures) {
      expect(page.statusCode).toBe(401);
      expect(page.body).toContain('id="passkey-sign-in"');
      const nonce = /script-src 'nonce-([A-Za-z0-9_-]{43})'/.exec(headerOf(page, 'content-security-policy')!)?.[1];
      expect(nonce).toBeDefined();
      expect(page.body).toContain(`<script nonce="${nonce}">`);
    }
  });

  const refusals: [string, (a: SoftAuthenticator, challenge: string) => unknown][] = [
    ['another origin', (a, challenge) => a.register({ challenge, origin: 'https://evil.example.test' })],
    ['another RP ID', (a, challenge) => a.register({ challenge, rpId: 'example.test' })],
    ['user verification missing (UV flag clear)', (a, challenge) => a.register({ challenge, userVerified: false })],
    ['a challenge we never issued', (a) => a.register({ challenge: randomBytes(32).toString('base64url') })],
  ];
  it.each(refusals)('%s: refused with the one answer, nothing stored, no mail', async (_name, respond) => {
    const who = await createUserWithPassword();
    const cookie = await signedIn(who);
    const result = await postRegistration(cookie, respond(new SoftAuthenticator(issuer, rpId), await registrationChallenge(cookie)));
    expect(result.statusCode).toBe(400);
    expect(result.body).toContain('The passkey was not added. Try again.');
    expect(await passkeysOf(who)).toEqual([]);
    expect(mailsTo(outbox, who.user.email!)).toEqual([]);
  });

  it('a replayed registration response is refused: the ceremony is single use', async () => {
    const who = await createUserWithPassword();
    const cookie = await signedIn(who);
    const response = new SoftAuthenticator(issuer, rpId).register({ challenge: await registrationChallenge(cookie) });
    expect((await postRegistration(cookie, response)).statusCode).toBe(303);
    const replay = await postRegistration(cookie, response);
    expect(replay.statusCode).toBe(400);
    expect(await passkeysOf(who)).toHaveLength(1);
  });

  it('an expired ceremony (5 minutes) is refused even before TTL removes it', async () => {
    const who = await createUserWithPassword();
    const cookie = await signedIn(who);
    const challenge = randomBytes(32).toString('base64url');
    await getPasskeys().ceremonies.save(challenge, { kind: 'register', userId: who.user.id, expiresAtEpoch: nowEpoch() - 1 });
    const result = await postRegistration(cookie, new SoftAuthenticator(issuer, rpId).register({ challenge }));
    expect(result.statusCode).toBe(400);
    expect(await passkeysOf(who)).toEqual([]);
  });

  it("another user's ceremony, or a sign-in ceremony, does not register", async () => {
    const who = await createUserWithPassword();
    const other = await createUserWithPassword();
    const cookie = await signedIn(who);
    const otherChallenge = await registrationChallenge(await signedIn(other));
    for (const challenge of [otherChallenge, await signInChallenge()]) {
      const result = await postRegistration(cookie, new SoftAuthenticator(issuer, rpId).register({ challenge }));
      expect(result.statusCode).toBe(400);
    }
    expect(await passkeysOf(who)).toEqual([]);
    expect(await passkeysOf(other)).toEqual([]);
  });

  it('the same authenticator credential twice is refused (past excludeCredentials), and the first stays', async () => {
    const { who, cookie, authenticator } = await userWithPasskey();
    const again = await postRegistration(cookie, authenticator.register({ challenge: await registrationChallenge(cookie) }));
    expect(again.statusCode).toBe(400);
    expect(await passkeysOf(who)).toHaveLength(1);
  });

  it('a sign-in older than 10 minutes cannot register: sent to sign in again, nothing stored', async () => {
    const who = await createUserWithPassword();
    const challenge = await registrationChallenge(await signedIn(who));
    const stale = await signedIn(who, 11 * 60);
    const result = await postRegistration(stale, new SoftAuthenticator(issuer, rpId).register({ challenge }));
    expect(result.statusCode).toBe(303);
    expect(headerOf(result, 'location')).toMatch(/^\/api\/auth\/signin\?return_to=/);
    expect(await passkeysOf(who)).toEqual([]);
  });
});

describe('sign-in with a passkey (behaviour PASSKEY-3..PASSKEY-6; WebAuthn 7.2; RFC 8176)', () => {
  it('a verified assertion starts a session with amr hwk user mfa, no mailed code, and records the counter', async () => {
    const { who, authenticator } = await userWithPasskey();
    const before = await sessionsOf(who.user.id);
    const result = await postSignIn(authenticator.assert({ challenge: await signInChallenge() }), { return_to: '/api/users/passkey' });
    expect(result.statusCode).toBe(303);
    expect(headerOf(result, 'location')).toBe('/api/users/passkey');
    expect(headerOf(result, 'set-cookie')).toMatch(/^__Host-session=/);
    expect(await sessionsOf(who.user.id)).toBe(before + 1);
    const sessionId = /^__Host-session=([^;]+)/.exec(headerOf(result, 'set-cookie')!)![1]!;
    expect((await getSessions().getSession(sessionId, nowEpoch()))?.amr).toEqual(['hwk', 'user', 'mfa']);
    expect(mailsTo(outbox, who.user.email!).filter((m) => /code/i.test(m.subject))).toEqual([]);
    expect((await getPasskeyStore().get(authenticator.id))?.counter).toBe(1);
  });

  it('inside an authorization, the sign-in continues to the redirect URI with a code, as after a password', async () => {
    const environmentId = unique('env_');
    const client: Client = await createClient({ kind: 'app', environmentId });
    const { who, authenticator } = await userWithPasskey();
    await grantEnvironment(who.user.id, environmentId, new Date().toISOString());
    const signInPage = await authorizeHandler(
      apiGatewayEvent({ path: '/api/authorize', query: authorizeQuery(client, { state: 'pk-state' }), headers: { Accept: 'text/html' } }),
      lambdaContext,
    );
    expect(signInPage.body).toContain('id="passkey-sign-in"');
    const requestId = hiddenField(signInPage.body, 'request_id');
    const result = await postSignIn(authenticator.assert({ challenge: await signInChallenge() }), { request_id: requestId });
    expect(result.statusCode).toBe(303);
    const location = new URL(headerOf(result, 'location')!);
    expect(location.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(location.searchParams.get('state')).toBe('pk-state');
  });

  const refusals: [string, (a: SoftAuthenticator, challenge: string) => unknown][] = [
    ['another origin', (a, challenge) => a.assert({ challenge, origin: 'https://evil.example.test' })],
    ['another RP ID', (a, challenge) => a.assert({ challenge, rpId: 'example.test' })],
    ['user verification missing (UV flag clear)', (a, challenge) => a.assert({ challenge, userVerified: false })],
    ['a counter going backwards', (a, challenge) => a.assert({ challenge, counter: 0 })],
    ['an unknown credential', (_a, challenge) => new SoftAuthenticator(issuer, rpId).assert({ challenge })],
    ['a challenge we never issued', (a) => a.assert({ challenge: randomBytes(32).toString('base64url') })],
    ['another user handle', (a, challenge) => a.assert({ challenge, userHandle: Buffer.from('usr_someone').toString('base64url') })],
  ];
  it.each(refusals)('%s: refused with the one answer, no session, counter unchanged', async (_name, respond) => {
    const { who, authenticator } = await userWithPasskey();
    // One good sign-in first, so the stored counter is above zero.
    expect((await postSignIn(authenticator.assert({ challenge: await signInChallenge() }))).statusCode).toBe(200);
    const sessions = await sessionsOf(who.user.id);
    const result = await postSignIn(respond(authenticator, await signInChallenge()));
    expectRefused(result);
    expect(await sessionsOf(who.user.id)).toBe(sessions);
    expect((await getPasskeyStore().get(authenticator.id))?.counter).toBe(1);
  });

  it('a replayed assertion is refused: the ceremony is single use', async () => {
    const { who, authenticator } = await userWithPasskey();
    const response = authenticator.assert({ challenge: await signInChallenge() });
    expect((await postSignIn(response)).statusCode).toBe(200);
    const sessions = await sessionsOf(who.user.id);
    expectRefused(await postSignIn(response));
    expect(await sessionsOf(who.user.id)).toBe(sessions);
  });

  it('an expired ceremony is refused; so is a registration ceremony', async () => {
    const { who, cookie, authenticator } = await userWithPasskey();
    const expired = randomBytes(32).toString('base64url');
    await getPasskeys().ceremonies.save(expired, { kind: 'sign-in', expiresAtEpoch: nowEpoch() - 1 });
    const sessions = await sessionsOf(who.user.id);
    expectRefused(await postSignIn(authenticator.assert({ challenge: expired })));
    expectRefused(await postSignIn(authenticator.assert({ challenge: await registrationChallenge(cookie) })));
    expect(await sessionsOf(who.user.id)).toBe(sessions);
  });

  it('a JSON caller gets 401 access_denied with the same description', async () => {
    const { authenticator } = await userWithPasskey();
    const result = await postSignIn(
      authenticator.assert({ challenge: await signInChallenge(), userVerified: false }),
      {},
      browserHeaders({ Accept: 'application/json' }),
    );
    expect(result.statusCode).toBe(401);
    expect(jsonBody(result)).toEqual({
      error: 'access_denied',
      error_description: 'That passkey could not sign you in. Try again, or use your password.',
    });
  });
});

function expectRefused(result: APIGatewayProxyResult): void {
  expect(result.statusCode).toBe(401);
  expect(result.body).toContain('That passkey could not sign you in. Try again, or use your password.');
  expect(headerOf(result, 'set-cookie')).toBeUndefined();
}

describe('names, and what the mails say (behaviour PASSKEY-11, PASSKEY-12)', () => {
  const chromeOnLinux = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
  const utcMinute = /\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/;

  it('adding a passkey mails its owner its name, when it was added and how to remove it; the page lists it by name', async () => {
    const who = await createUserWithPassword();
    const cookie = await signedIn(who);
    const authenticator = new SoftAuthenticator(issuer, rpId);
    const added = await postRegistration(cookie, authenticator.register({ challenge: await registrationChallenge(cookie) }), {
      name: '  Work   laptop ',
    });
    expect(added.statusCode).toBe(303);
    expect(await passkeysOf(who)).toEqual([expect.objectContaining({ name: 'Work laptop' })]);
    const [mail] = mailsTo(outbox, who.user.email!);
    expect(mail!.subject).toBe('A passkey was added to your account');
    expect(mail!.text).toContain('A passkey named "Work laptop" was added to your account on ');
    expect(mail!.text).toMatch(utcMinute);
    expect(mail!.text).toContain(`sign in at ${issuer}/api/users/passkey and press Remove next to "Work laptop"`);
    expect((await getPage(cookie)).body).toContain('<strong>Work laptop</strong>');
  });

  it('an unnamed passkey is named for the browser and system that added it; removing it mails that name', async () => {
    const who = await createUserWithPassword();
    const cookie = await signedIn(who);
    const authenticator = new SoftAuthenticator(issuer, rpId);
    await postRegistration(
      cookie,
      authenticator.register({ challenge: await registrationChallenge(cookie) }),
      { name: '' },
      { 'User-Agent': chromeOnLinux },
    );
    expect(await passkeysOf(who)).toEqual([expect.objectContaining({ name: 'Chrome on Linux' })]);
    expect(mailsTo(outbox, who.user.email!)[0]!.text).toContain('A passkey named "Chrome on Linux" was added');
    await post(removeHandler, '/api/users/passkey/remove', { credential_id: authenticator.id }, withCookie(cookie));
    const removed = mailsTo(outbox, who.user.email!).find((m) => m.subject === 'A passkey was removed from your account')!;
    expect(removed.text).toMatch(
      /The passkey "Chrome on Linux" \(added \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\) was removed from your account on /,
    );
  });

  it('a name with a control character or over 64 characters is 400 invalid_request, nothing stored, no mail', async () => {
    const who = await createUserWithPassword();
    const cookie = await signedIn(who);
    for (const name of ['line\u0000break', 'x'.repeat(65), 'bidi\u202Etrick']) {
      const authenticator = new SoftAuthenticator(issuer, rpId);
      const refused = await postRegistration(
        cookie,
        authenticator.register({ challenge: await registrationChallenge(cookie) }),
        { name },
        { Accept: 'application/json' },
      );
      expect(refused.statusCode).toBe(400);
      expect(jsonBody(refused).error).toBe('invalid_request');
    }
    expect(await passkeysOf(who)).toEqual([]);
    expect(mailsTo(outbox, who.user.email!)).toEqual([]);
  });
});

describe('removal (behaviour PASSKEY-2, PASSKEY-8, PASSKEY-9)', () => {
  it('the user removes a passkey: mailed, no longer listed, no longer signs in', async () => {
    const { who, cookie, authenticator } = await userWithPasskey();
    const removed = await post(removeHandler, '/api/users/passkey/remove', { credential_id: authenticator.id }, withCookie(cookie));
    expect(removed.statusCode).toBe(303);
    expect(headerOf(removed, 'location')).toBe('/api/users/passkey?done=removed');
    expect(await passkeysOf(who)).toEqual([]);
    expect(mailsTo(outbox, who.user.email!).map((m) => m.subject)).toContain('A passkey was removed from your account');
    expectRefused(await postSignIn(authenticator.assert({ challenge: await signInChallenge() })));
  });

  it("another user's passkey cannot be removed by naming its id: 404, and it stays", async () => {
    const owner = await userWithPasskey();
    const intruder = await createUserWithPassword();
    const result = await post(
      removeHandler,
      '/api/users/passkey/remove',
      { credential_id: owner.authenticator.id },
      withCookie(await signedIn(intruder)),
    );
    expect(result.statusCode).toBe(404);
    expect(await passkeysOf(owner.who)).toHaveLength(1);
  });

  it('the admin API lists a user’s passkeys (no public key) and removes one; 404 for an unknown one', async () => {
    const { who, authenticator } = await userWithPasskey();
    const { token } = await adminClientToken();
    const listed = await callAdmin(listPasskeysAdmin, { token, pathParameters: { user_id: who.user.id } });
    expect(listed.statusCode).toBe(200);
    expect(jsonBody(listed).items).toEqual([
      {
        credential_id: authenticator.id,
        name: 'Passkey',
        created_at: expect.any(String),
        last_used_at: null,
        backed_up: false,
        transports: ['internal'],
      },
    ]);
    expect(listed.body).not.toContain((await getPasskeyStore().get(authenticator.id))!.publicKey);
    const pathParameters = { user_id: who.user.id, credential_id: authenticator.id };
    expect((await callAdmin(removePasskeyAdmin, { token, method: 'DELETE', pathParameters })).statusCode).toBe(204);
    expect((await callAdmin(removePasskeyAdmin, { token, method: 'DELETE', pathParameters })).statusCode).toBe(404);
    expect(await passkeysOf(who)).toEqual([]);
    const unknownUser = await callAdmin(listPasskeysAdmin, { token, pathParameters: { user_id: 'usr_absent' } });
    expect(unknownUser.statusCode).toBe(404);
  });

  it('deleting the user removes their passkeys: the credential no longer signs in', async () => {
    const { who, authenticator } = await userWithPasskey();
    await deleteUser(getAdmin(), testAdminActor, who.user.id);
    expect(await getPasskeyStore().get(authenticator.id)).toBeUndefined();
    expectRefused(await postSignIn(authenticator.assert({ challenge: await signInChallenge() })));
  });
});

describe('bad input on the passkey endpoints: 400 invalid_request, never a 500', () => {
  const badCredentials = ['not json', '[]', '{}', JSON.stringify({ id: 'a', rawId: 'a', type: 'other', response: {} }), 'x'.repeat(40_000)];

  it.each(badCredentials)('credential %#', async (credential) => {
    const who = await createUserWithPassword();
    const cookie = await signedIn(who);
    const json = browserHeaders({ Accept: 'application/json', Cookie: cookie });
    for (const [handler, path] of [
      [registerHandler, '/api/users/passkey/verify'],
      [signInHandler, '/api/auth/passkey/verify'],
    ] as const) {
      const result = await post(handler, path, { credential }, json);
      expect(result.statusCode).toBe(400);
      expect(jsonBody(result).error).toBe('invalid_request');
    }
    const remove = await post(removeHandler, '/api/users/passkey/remove', { credential_id: 'not base64url!' }, json);
    expect(remove.statusCode).toBe(400);
    expect(jsonBody(remove).error).toBe('invalid_request');
  });

  it('a cross-site post to the options endpoint is refused: 403 access_denied', async () => {
    const result = await optionsHandler(
      apiGatewayEvent({
        method: 'POST',
        path: '/api/auth/passkey/options',
        headers: { Accept: 'application/json', 'Sec-Fetch-Site': 'cross-site' },
      }),
      lambdaContext,
    );
    expect(result.statusCode).toBe(403);
    expect(jsonBody(result).error).toBe('access_denied');
  });
});

describe('PASSKEY_RP_ID (behaviour PASSKEY-7)', () => {
  const base = { BASE_URL: 'https://auth.example.com', JWKS_CDN_BASE_URL: 'https://jwks.example.com', MAIL_FROM: 'a@example.com' };
  it('defaults to the issuer host and accepts a parent domain of it', () => {
    expect(loadConfig(base).passkeyRpId).toBe('auth.example.com');
    expect(loadConfig({ ...base, PASSKEY_RP_ID: 'example.com' }).passkeyRpId).toBe('example.com');
  });
  it('refuses a domain the issuer is not under, and a bare top-level label', () => {
    expect(() => loadConfig({ ...base, PASSKEY_RP_ID: 'example.org' })).toThrow(/PASSKEY_RP_ID/);
    expect(() => loadConfig({ ...base, PASSKEY_RP_ID: 'com' })).toThrow(/PASSKEY_RP_ID/);
  });
});

/**
 * "Remove all passkeys" after a reset against an intruder who acts while it runs
 * (behaviour RESET-9, RESET-12, PASSKEY-3, PASSKEY-13, PASSKEY-14). The intruder's
 * passkey still signs in after the owner's reset, so it can hold a fresh session, post
 * registrations and sign in again while the removal runs. Each race is run in a fixed order
 * with the fault double's hold (test/support/dynamo-faults.ts): one request's write waits
 * while the other runs to its end.
 *
 * Before: the removal listed the passkeys, deleted them one by one and ended the sessions the
 * index showed; a registration or a session written after its listing survived it. Now its first
 * write moves the user's credentialVersion and passkeyGeneration, and everything started before
 * that write is dead at its next use.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { handler as listPasskeysAdmin } from '../../lambdas/handlers/admin/user-passkeys-list';
import { handler as sessionHandler } from '../../lambdas/handlers/session';
import { handler as passwordSignIn } from '../../lambdas/handlers/sign-in';
import { getPasskeyStore } from '../../lambdas/wiring/passkeys';
import { getStorage } from '../../lambdas/wiring/storage';
import { adminClientToken, createUserWithPassword, type TestUser } from '../support/fixtures';
import { mailsTo } from '../support/account';
import { callAdmin } from '../support/admin-calls';
import { useOutbox } from '../support/api-keys';
import { browserHeaders } from '../support/authorization';
import { DynamoFaults, touches, type Attempt } from '../support/dynamo-faults';
import { apiGatewayEvent, headerOf, jsonBody, lambdaContext } from '../support/events';
import {
  passkeysPage,
  postForm,
  postRegistration,
  postSignIn,
  registrationChallenge,
  signedIn,
  signInChallenge,
} from '../support/passkeys';
import { completeReset, mailedLink, removeAll, setCookies } from '../support/recovery';
import { SoftAuthenticator } from '../support/webauthn';

const outbox = useOutbox();
const issuer = process.env.BASE_URL!;
const rpId = new URL(issuer).hostname;
let adminToken: string;
let faults: DynamoFaults;
beforeAll(async () => {
  adminToken = (await adminClientToken()).token;
  faults = DynamoFaults.install();
});
afterAll(() => faults.uninstall());
afterEach(() => faults.clear());

const authenticator = () => new SoftAuthenticator(issuer, rpId);
const sessionCookieOf = (result: APIGatewayProxyResult): string => {
  const cookie = setCookies(result).find((c) => c.startsWith('__Host-session='));
  if (!cookie) throw new Error(`no session cookie in a ${result.statusCode} answer`);
  return cookie.split(';')[0]!;
};
const whoIsSignedIn = (cookie: string) =>
  sessionHandler(apiGatewayEvent({ path: '/api/auth/session', headers: { Cookie: cookie } }), lambdaContext);
/** Every passkey index entry in the user's partition, of any generation (what the removal must leave none of). */
async function storedPasskeys(who: TestUser): Promise<Record<string, unknown>[]> {
  const { db, tables } = getStorage();
  const page = await db.send(
    new QueryCommand({
      TableName: tables.main,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': `USER#${who.user.id}`, ':prefix': 'PASSKEY#' },
      ConsistentRead: true,
    }),
  );
  return page.Items ?? [];
}
const adminListsPasskeys = async (who: TestUser) =>
  jsonBody(
    await callAdmin(listPasskeysAdmin, {
      token: adminToken,
      method: 'GET',
      path: `/api/admin/users/${who.user.id}/passkeys`,
      pathParameters: { user_id: who.user.id },
    }),
  ).items as { name: string }[];

const isWrite = (operation: string) => operation === 'TransactWriteItems';
/** A write of a passkey record: a registration's, or one of the removal's deletions. */
const passkeyWrite = (attempt: Attempt) => isWrite(attempt.operation) && touches(attempt, 'PASSKEY#');

/**
 * The intruder added a passkey while it knew the password; the owner reset the password (every
 * session ended) and has the completion's proof; the intruder's passkey signed in again since.
 */
async function afterTheReset(): Promise<{
  who: TestUser;
  key: SoftAuthenticator;
  recovery: string;
  intruder: string;
  password: string;
}> {
  const who = await createUserWithPassword();
  const before = await signedIn(who);
  const key = authenticator();
  expect(
    (await postRegistration(before, key.register({ challenge: await registrationChallenge(before) }), { name: 'Intruder key' })).statusCode,
  ).toBe(303);
  const password = 'the owner new password';
  const { recovery } = await completeReset(await mailedLink(outbox, who), password);
  expect(recovery).toMatch(/^__Secure-recovery=/);
  const signIn = await postSignIn(key.assert({ challenge: await signInChallenge() }));
  expect(signIn.statusCode).toBe(200);
  return { who, key, recovery, intruder: sessionCookieOf(signIn), password };
}

describe('"Remove all passkeys" leaves no passkey an intruder adds or uses while it runs (behaviour RESET-9, PASSKEY-13, PASSKEY-14)', () => {
  it('a registration whose write lands after the removal began stores nothing, and its browser is sent to sign in (fails before: it survived)', async () => {
    const { who, recovery, intruder } = await afterTheReset();
    const late = authenticator();
    const challenge = await registrationChallenge(intruder);
    // The registration passed its session check and verification; its write waits.
    const held = faults.hold(passkeyWrite);
    const registration = postRegistration(intruder, late.register({ challenge }), { name: 'Owner laptop' });
    await held.reached;
    const removed = await removeAll(recovery);
    expect(removed.statusCode).toBe(200);
    expect(removed.body).toContain('<strong>Intruder key</strong>');
    held.release();

    const result = await registration;
    expect(result.statusCode).toBe(303);
    expect(headerOf(result, 'location')).toBe('/api/auth/signin?return_to=%2Fapi%2Fusers%2Fpasskey');
    expect(await getPasskeyStore().get(late.id)).toBeUndefined();
    expect(await storedPasskeys(who)).toEqual([]);
    expect(await adminListsPasskeys(who)).toEqual([]);
    expect(mailsTo(outbox, who.user.email!).filter((m) => m.subject === 'A passkey was added to your account')).toHaveLength(1);
    expect((await whoIsSignedIn(intruder)).statusCode).toBe(401);
  });

  it('a registration that landed just before the removal took effect is found in the user partition and removed with the rest', async () => {
    const { who, recovery, intruder } = await afterTheReset();
    const early = authenticator();
    const challenge = await registrationChallenge(intruder);
    // The removal's first write (the proof and the user) waits; the registration lands meanwhile.
    const held = faults.hold((attempt) => attempt.operation !== 'GetItem' && touches(attempt, 'PWRECOVER#'));
    const removal = removeAll(recovery);
    await held.reached;
    expect((await postRegistration(intruder, early.register({ challenge }), { name: 'Added just before' })).statusCode).toBe(303);
    held.release();

    const removed = await removal;
    expect(removed.statusCode).toBe(200);
    expect(removed.body).toContain('<strong>Added just before</strong>');
    expect(await storedPasskeys(who)).toEqual([]);
    const [mail] = mailsTo(outbox, who.user.email!).filter((m) => m.subject === 'The passkeys of your account were removed');
    expect(mail!.text).toContain('- "Intruder key", added ');
    expect(mail!.text).toContain('- "Added just before", added ');
  });

  it('a passkey sign-in in flight when the removal runs gets a session that nothing accepts (fails before: it lived on)', async () => {
    const { key, recovery } = await afterTheReset();
    // The sign-in has read the owner and used the passkey; its session is not written yet.
    const held = faults.hold((attempt) => attempt.operation === 'PutItem' && touches(attempt, 'SESSION#'));
    const signIn = postSignIn(key.assert({ challenge: await signInChallenge() }));
    await held.reached;
    expect((await removeAll(recovery)).statusCode).toBe(200);
    held.release();

    const result = await signIn;
    expect(result.statusCode).toBe(200);
    const cookie = sessionCookieOf(result);
    expect((await whoIsSignedIn(cookie)).statusCode).toBe(401);
    // Not recent enough for anything: no passkeys page, so no new passkey.
    expect((await passkeysPage(cookie)).statusCode).toBe(303);
  });

  it('a passkey sign-in that reads the owner after the removal took effect is refused, although the record is not deleted yet (fails before: it signed in)', async () => {
    const { key, recovery } = await afterTheReset();
    // The removal has moved the version and generation and listed the passkeys; its first deletion waits.
    const held = faults.hold(passkeyWrite);
    const removal = removeAll(recovery);
    await held.reached;
    expect(await getPasskeyStore().get(key.id)).toBeDefined();
    const signIn = await postSignIn(key.assert({ challenge: await signInChallenge() }), {}, browserHeaders({ Accept: 'application/json' }));
    expect(signIn.statusCode).toBe(401);
    expect(jsonBody(signIn).error).toBe('access_denied');
    expect(setCookies(signIn).filter((c) => c.startsWith('__Host-session='))).toEqual([]);
    held.release();
    expect((await removal).statusCode).toBe(200);
  });
});

describe('the removal took effect with its first write, so a failure after it leaves nothing usable (behaviour RESET-9, PASSKEY-13)', () => {
  it('deletions that fail: 503, and the passkey left behind signs no one in and is listed nowhere (fails before: it kept signing in)', async () => {
    const { who, key, recovery, intruder } = await afterTheReset();
    faults.fail({ operation: 'TransactWriteItems', phase: 'before', where: (attempt) => touches(attempt, 'PASSKEY#') });
    const removal = await removeAll(recovery, browserHeaders({ Accept: 'application/json' }));
    expect(removal.statusCode).toBe(503);
    faults.clear();

    expect(await getPasskeyStore().get(key.id)).toBeDefined();
    expect(await getPasskeyStore().listOf(who.user.id)).toEqual([]);
    expect(await adminListsPasskeys(who)).toEqual([]);
    expect((await postSignIn(key.assert({ challenge: await signInChallenge() }))).statusCode).toBe(401);
    expect((await whoIsSignedIn(intruder)).statusCode).toBe(401);
  });

  it('a first write that fails leaves the proof working: the same step then completes (the proof is spent exactly when the removal takes effect)', async () => {
    const { who, key, recovery } = await afterTheReset();
    faults.fail({ operation: 'TransactWriteItems', phase: 'before', where: (attempt) => touches(attempt, 'PWRECOVER#') });
    expect((await removeAll(recovery, browserHeaders({ Accept: 'application/json' }))).statusCode).toBe(503);
    faults.clear();
    expect(await getPasskeyStore().listOf(who.user.id)).toHaveLength(1);

    const again = await removeAll(recovery, browserHeaders({ Accept: 'application/json' }));
    expect(again.statusCode).toBe(200);
    expect(jsonBody(again)).toEqual({ removed_passkeys: ['Intruder key'], revoked_api_keys: [] });
    expect(await getPasskeyStore().get(key.id)).toBeUndefined();
  });

  it("the removal's own move of the credential version ends no step of the recovery: the new password signs in, and a new passkey can be added", async () => {
    const { who, recovery, password } = await afterTheReset();
    expect((await removeAll(recovery)).statusCode).toBe(200);
    const signIn = await postForm(passwordSignIn, '/api/auth/signin', { email: who.user.email!, password });
    expect(signIn.statusCode).toBe(200);
    const cookie = sessionCookieOf(signIn);
    expect((await whoIsSignedIn(cookie)).statusCode).toBe(200);
    const own = authenticator();
    expect(
      (await postRegistration(cookie, own.register({ challenge: await registrationChallenge(cookie) }), { name: 'Own key' })).statusCode,
    ).toBe(303);
    expect((await getPasskeyStore().listOf(who.user.id)).map((p) => p.name)).toEqual(['Own key']);
    expect((await postSignIn(own.assert({ challenge: await signInChallenge() }))).statusCode).toBe(200);
  });
});

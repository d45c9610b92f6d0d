/**
 * The "password changed" mail, and the reset completion page, when the passkeys or the API keys
 * cannot be read (behaviour RESET-10, RESET-9, RESET-13): the mail still goes and says that any of
 * them still works and where to check them, and the page says the same; neither says there are
 * none, which after a takeover would tell the owner an intruder's key or passkey was gone.
 * The listing fails in the SDK client (every attempt of its query), as DynamoDB or the network would.
 */
import { accountPaths } from '../../lambdas/core/account/paths';
import type { Client } from '../../lambdas/core/model';
import { setPasswordAsAdmin } from '../support/admin-calls';
import { createKeyAs, useOutbox } from '../support/api-keys';
import { mailsTo } from '../support/account';
import { type Attempt, DynamoFaults } from '../support/dynamo-faults';
import { completeReset, mailedLink } from '../support/recovery';
import {
  adminClientToken,
  createClient,
  createUserWithPassword,
  issueAccessToken,
  testFileEnvironment,
  type TestUser,
} from '../support/fixtures';

const outbox = useOutbox();
let adminToken: string;
let client: Client;
let faults: DynamoFaults;
beforeAll(async () => {
  adminToken = (await adminClientToken()).token;
  client = await createClient({ name: 'Reports app', scopes: ['read'] });
  faults = DynamoFaults.install();
});
afterAll(() => faults.uninstall());
afterEach(() => faults.clear());

/** The strongly consistent query of the user's own partition that lists their API keys (`APIKEY#`) or passkeys (`PASSKEY#`). */
const listingOf =
  (who: TestUser, prefix: 'APIKEY#' | 'PASSKEY#') =>
  (attempt: Attempt): boolean => {
    const values = attempt.input.ExpressionAttributeValues as Record<string, { S?: string }> | undefined;
    return values?.[':pk']?.S === `USER#${who.user.id}` && values[':prefix']?.S === prefix;
  };

/** An account with a self-service key an intruder created while holding it (behaviour KEYM-2). */
async function withIntruderKey(): Promise<TestUser> {
  const who = await createUserWithPassword({ environments: [await testFileEnvironment()] });
  const { token } = await issueAccessToken({ clientId: client.clientId, sub: who.user.id, scopes: ['read'] });
  expect((await createKeyAs(token, client.clientId, { name: 'backup sync' })).status).toBe(201);
  return who;
}

const changedMail = (who: TestUser) => {
  const mails = mailsTo(outbox, who.user.email!).filter((m) => m.subject === 'Your password was changed');
  expect(mails).toHaveLength(1);
  return mails[0]!.text;
};

const keysUnread =
  'API keys you created in an application are not ended by a password change either: any such key still gets access tokens that act as you.';
const passkeysUnread = 'Passkeys are not ended by a password change: any passkey on your account still signs in without the password.';

describe('the keys cannot be read when the password changes (behaviour RESET-10)', () => {
  it('after a reset, the mail says any API key still gets access tokens and where to check them, never "No API key" (fails before: it said none)', async () => {
    const who = await withIntruderKey();
    const token = await mailedLink(outbox, who);
    faults.fail({ operation: 'Query', phase: 'before', where: listingOf(who, 'APIKEY#') });
    const { page } = await completeReset(token);
    expect(faults.injected.length).toBeGreaterThan(0);

    const text = changedMail(who);
    expect(text).toContain(keysUnread);
    expect(text).toContain('Check them in the applications you use, and revoke any you do not recognise.');
    expect(text).not.toContain('No API key you created in an application can get tokens for your account.');
    expect(text).toContain('No passkey can sign in to your account.'); // the passkeys were read

    // The completion page does not say "none" either, and still offers revoking them all (RESET-13).
    expect(page.body).not.toContain('id="no-api-keys"');
    expect(page.body).not.toContain('No API key created in an application with your account can get tokens.');
    expect(page.body).toContain('A password change does not end API keys');
    expect(page.body).toContain('<button type="submit" id="remove-all-passkeys">Revoke all API keys</button>');
  });

  it('after an admin password change, the mail says any API key still gets access tokens, never "No API key" (fails before: it said none)', async () => {
    const who = await withIntruderKey();
    faults.fail({ operation: 'Query', phase: 'before', where: listingOf(who, 'APIKEY#') });
    const patched = await setPasswordAsAdmin(adminToken, who.user.id, 'set by the admin');
    expect(patched.statusCode).toBe(200);
    expect(faults.injected.length).toBeGreaterThan(0);

    const text = changedMail(who);
    expect(text).toContain('changed by an administrator');
    expect(text).toContain(keysUnread);
    expect(text).not.toContain('No API key you created in an application can get tokens for your account.');
  });
});

describe('the passkeys cannot be read when the password changes (behaviour RESET-10, RESET-9)', () => {
  it('after a reset, the mail says any passkey still signs in and where to check them, never "No passkey"; the page says the same (fails before: the page said none)', async () => {
    const who = await createUserWithPassword();
    const token = await mailedLink(outbox, who);
    faults.fail({ operation: 'Query', phase: 'before', where: listingOf(who, 'PASSKEY#') });
    const { page } = await completeReset(token);
    expect(faults.injected.length).toBeGreaterThan(0);

    const text = changedMail(who);
    expect(text).toContain(passkeysUnread);
    expect(text).toContain(`Check them at ${process.env.BASE_URL}${accountPaths.passkeys} (after signing in)`);
    expect(text).not.toContain('No passkey can sign in to your account.');
    expect(text).toContain('No API key you created in an application can get tokens for your account.'); // the keys were read

    expect(page.body).not.toContain('id="no-passkeys"');
    expect(page.body).not.toContain('No passkey can sign in to your account.');
    expect(page.body).toContain('A password change does not end passkeys');
    expect(page.body).toContain('<button type="submit" id="remove-all-passkeys">Remove all passkeys</button>');
  });
});

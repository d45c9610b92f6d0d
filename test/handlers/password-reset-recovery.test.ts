/**
 * Recovery leaves nothing an intruder set up working, and the mail says what happened
 * (behaviour RESET-9, RESET-10, RESET-11, PASSKEY-12): the "password changed" mail names the
 * passkeys that still sign in (or says none can) and how to remove them; the reset completion
 * lists them and removes them all with its own short-lived, single-use proof (a cookie scoped to
 * that form's path), same-origin only; an admin-sent link removes nothing by itself. The races of
 * the removal with an intruder's registration or sign-in: test/handlers/recovery-races.test.ts.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomBytes } from 'node:crypto';
import { resetTokenDigest } from '../../lambdas/core/account/password-reset';
import { handler as sendLinkHandler } from '../../lambdas/handlers/admin/users-password-reset';
import { handler as updateUserHandler } from '../../lambdas/handlers/admin/users-update';
import { getPasskeyStore } from '../../lambdas/wiring/passkeys';
import { getSessions, getUsers } from '../../lambdas/wiring/repositories';
import { getStorage } from '../../lambdas/wiring/storage';
import { callAdmin } from '../support/admin-calls';
import { useOutbox } from '../support/api-keys';
import { adminClientToken, createUserWithPassword, type TestUser } from '../support/fixtures';
import { ephemeralItems, latestResetToken, mailsTo, sessionsOf } from '../support/account';
import { browserHeaders } from '../support/authorization';
import { headerOf, jsonBody } from '../support/events';
import { completeReset, mailedLink as recoveryLink, removeAll, setCookies } from '../support/recovery';
import type { Passkey } from '../../lambdas/core/account/ports';

const outbox = useOutbox();
const issuer = process.env.BASE_URL!;
let adminToken: string;
beforeAll(async () => {
  adminToken = (await adminClientToken()).token;
});

async function addPasskey(who: TestUser, name: string): Promise<Passkey> {
  const passkey: Passkey = {
    credentialId: randomBytes(16).toString('base64url'),
    userId: who.user.id,
    publicKey: randomBytes(32).toString('base64url'),
    counter: 0,
    backedUp: false,
    createdAt: new Date().toISOString(),
    name,
  };
  const user = await getUsers().current(who.user.id);
  const owner = { credentialVersion: user?.credentialVersion ?? 0, passkeyGeneration: user?.passkeyGeneration ?? 0 };
  expect(await getPasskeyStore().add({ ...passkey, generation: owner.passkeyGeneration }, owner)).toBe('added');
  return passkey;
}

/** A session as a passkey sign-in leaves it (behaviour PASSKEY-3). */
async function passkeySession(who: TestUser): Promise<void> {
  const authTime = Math.floor(Date.now() / 1000);
  await getSessions().createSession(
    randomBytes(32).toString('base64url'),
    { userId: who.user.id, authTime, amr: ['hwk', 'user', 'mfa'], expiresAtEpoch: authTime + 3600 },
    new Date().toISOString(),
  );
}

const mailedLink = (who: TestUser) => recoveryLink(outbox, who);

/** An admin password change (behaviour ADMIN-6, RESET-7). */
const adminSetsPassword = (who: TestUser, password: string) =>
  callAdmin(updateUserHandler, {
    token: adminToken,
    method: 'PATCH',
    path: `/api/admin/users/${who.user.id}`,
    pathParameters: { user_id: who.user.id },
    body: { password },
  });
const passkeysOf = (who: TestUser) => getPasskeyStore().listOf(who.user.id);
const mailWithSubject = (who: TestUser, subject: string) => mailsTo(outbox, who.user.email!).filter((m) => m.subject === subject);

describe('the "password changed" mail says exactly what happened (behaviour RESET-10)', () => {
  it('after a reset link: how, that every session and refresh token ended, and each passkey that still signs in, named, with how to remove it', async () => {
    const who = await createUserWithPassword();
    await addPasskey(who, 'Intruder key');
    await addPasskey(who, 'My phone');
    await completeReset(await mailedLink(who));
    const [mail] = mailWithSubject(who, 'Your password was changed');
    expect(mail!.text).toContain('The password of your account was just changed with a reset link mailed to this address, on ');
    expect(mail!.text).toContain(
      'Every session signed in to your account was ended, on every device, and the refresh tokens of every application were revoked',
    );
    expect(mail!.text).toContain('These passkeys can still sign in to your account without the password');
    expect(mail!.text).toMatch(/- "Intruder key", added \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC, last used never/);
    expect(mail!.text).toContain('- "My phone", added ');
    expect(mail!.text).toContain(`To remove one, sign in, open ${issuer}/api/users/passkey and press Remove next to it`);
    expect(mail!.text).not.toContain('every device signed in with the old one was signed out.\n\nIf you did not'); // the old, silent text
  });

  it('says so when no passkey can sign in', async () => {
    const who = await createUserWithPassword();
    await completeReset(await mailedLink(who));
    const [mail] = mailWithSubject(who, 'Your password was changed');
    expect(mail!.text).toContain('No passkey can sign in to your account.');
  });

  it('after an admin password change: "by an administrator", and the passkeys that still sign in', async () => {
    const who = await createUserWithPassword();
    await addPasskey(who, 'Intruder key');
    const patched = await adminSetsPassword(who, 'set by the admin');
    expect(patched.statusCode).toBe(200);
    const [mail] = mailWithSubject(who, 'Your password was changed');
    expect(mail!.text).toContain('was just changed by an administrator');
    expect(mail!.text).toContain('- "Intruder key", added ');
    expect(mail!.text).not.toContain('The page shown after the reset');
  });
});

describe('the reset completion lists the passkeys and removes them all with its own proof (behaviour RESET-9)', () => {
  it('lists every passkey by name with a same-origin form; the answer clears the link cookie and sets a 10-minute proof cookie scoped to that form', async () => {
    const who = await createUserWithPassword();
    await addPasskey(who, 'Intruder key');
    const { page } = await completeReset(await mailedLink(who));
    expect(page.body).toContain('<strong>Intruder key</strong>');
    expect(page.body).toContain('<form method="post" action="/reset-password/passkeys/remove">');
    const cookies = setCookies(page);
    expect(cookies).toContainEqual(expect.stringMatching(/^__Secure-reset=; Max-Age=0; Path=\/reset-password;/));
    const recovery = cookies.find((c) => c.startsWith('__Secure-recovery='))!;
    expect(recovery).toMatch(/^__Secure-recovery=[A-Za-z0-9_-]{43}; /);
    expect(recovery.split('; ').slice(1)).toEqual(
      expect.arrayContaining(['Max-Age=600', 'Path=/reset-password/passkeys/remove', 'HttpOnly', 'SameSite=Strict', 'Secure']),
    );
    // Only a digest is stored.
    expect(JSON.stringify(await ephemeralItems('PWRECOVER#'))).not.toContain(recovery.split(';')[0]!.split('=')[1]!);
  });

  it('"Remove all passkeys" removes every passkey (one added after the page too), ends sessions started since, mails the names, and works once', async () => {
    const who = await createUserWithPassword();
    const intruders = [await addPasskey(who, 'Intruder key')];
    const { recovery } = await completeReset(await mailedLink(who));
    intruders.push(await addPasskey(who, 'Added meanwhile'));
    await passkeySession(who); // the intruder signed in with a passkey after the reset
    expect(await sessionsOf(who.user.id)).toBe(1);
    const removed = await removeAll(recovery);
    expect(removed.statusCode).toBe(200);
    expect(removed.body).toContain('<strong>Intruder key</strong>');
    expect(removed.body).toContain('<strong>Added meanwhile</strong>');
    expect(headerOf(removed, 'set-cookie')).toMatch(/^__Secure-recovery=; Max-Age=0; Path=\/reset-password\/passkeys\/remove;/);
    expect(await passkeysOf(who)).toEqual([]);
    for (const passkey of intruders) expect(await getPasskeyStore().get(passkey.credentialId)).toBeUndefined();
    expect(await sessionsOf(who.user.id)).toBe(0);
    const [mail] = mailWithSubject(who, 'The passkeys of your account were removed');
    expect(mail!.text).toContain('- "Intruder key", added ');
    expect(mail!.text).toContain('- "Added meanwhile", added ');
    const again = await removeAll(recovery, browserHeaders({ Accept: 'application/json' }));
    expect(again.statusCode).toBe(400);
    expect(jsonBody(again).error).toBe('invalid_grant');
    expect(mailWithSubject(who, 'The passkeys of your account were removed')).toHaveLength(1);
  });

  it('refused, nothing removed: a cross-site post, no proof, an expired proof, and a proof outlived by a later password change', async () => {
    const who = await createUserWithPassword();
    await addPasskey(who, 'Kept');
    const { recovery } = await completeReset(await mailedLink(who));
    const crossSite = await removeAll(recovery, browserHeaders({ 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' }));
    expect(crossSite.statusCode).toBe(403);
    const none = await removeAll(undefined);
    expect(none.statusCode).toBe(400);
    expect(none.body).toContain('This step has expired');
    expect(await passkeysOf(who)).toHaveLength(1);

    // Expired: the stored proof's time is up (DynamoDB's TTL may not have removed it yet).
    const { db, tables } = getStorage();
    const digest = resetTokenDigest(recovery.split('=')[1]!);
    const past = Math.floor(Date.now() / 1000) - 1;
    await db.send(
      new UpdateCommand({
        TableName: tables.ephemeral,
        Key: { pk: `PWRECOVER#${digest}`, sk: 'PWRECOVER' },
        UpdateExpression: 'SET expiresAtEpoch = :past, #ttl = :past',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':past': past },
      }),
    );
    expect((await removeAll(recovery)).statusCode).toBe(400);
    expect(await passkeysOf(who)).toHaveLength(1);

    // Outlived: the password changed again after the reset.
    const second = await createUserWithPassword();
    await addPasskey(second, 'Kept too');
    const fresh = await completeReset(await mailedLink(second));
    await adminSetsPassword(second, 'changed once more');
    expect((await removeAll(fresh.recovery)).statusCode).toBe(400);
    expect(await passkeysOf(second)).toHaveLength(1);
    expect(mailWithSubject(second, 'The passkeys of your account were removed')).toEqual([]);
  });
});

describe('an admin-sent reset link removes no passkey by itself (behaviour RESET-11, ADMIN-17)', () => {
  it('sending the link and using it leave the passkeys; the completion offers removing them, as for any reset', async () => {
    const who = await createUserWithPassword();
    await addPasskey(who, 'Own key');
    const sent = await callAdmin(sendLinkHandler, {
      token: adminToken,
      method: 'POST',
      path: `/api/admin/users/${who.user.id}/password-reset`,
      pathParameters: { user_id: who.user.id },
    });
    expect(sent.statusCode).toBe(202);
    expect(await passkeysOf(who)).toHaveLength(1);
    const { page, recovery } = await completeReset(latestResetToken(outbox, who.user.email!));
    expect(await passkeysOf(who)).toHaveLength(1);
    expect(page.body).toContain('<strong>Own key</strong>');
    expect((await removeAll(recovery)).statusCode).toBe(200);
    expect(await passkeysOf(who)).toEqual([]);
  });
});

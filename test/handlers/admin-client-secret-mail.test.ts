/**
 * A rotated client secret is mailed to the admins (behaviour ADMIN-24), found in the user list
 * (ADMIN-25). On tables of this file's own (test/support/own-tables.ts): "every admin" is every
 * admin of the deployment, which in the shared tables would be every test file's.
 */
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { handler as rotate } from '../../lambdas/handlers/admin/clients-secret-rotate';
import { csrfTokenOf } from '../../lambdas/presentation/dashboard/guard';
import { getSessions, getUsers } from '../../lambdas/wiring/repositories';
import { mailsTo } from '../support/account';
import { callAdmin, ensureScopes } from '../support/admin-calls';
import { outboxMails, useOutbox } from '../support/api-keys';
import { handler as dashboard } from '../support/dashboard-handler';
import { apiGatewayEvent, jsonBody, lambdaContext } from '../support/events';
import { adminClientToken, adminUserToken, createClientWithSecret, createUser } from '../support/fixtures';
import { useOwnTables } from '../support/own-tables';
import { basic, postToken } from '../support/token-calls';

useOwnTables();
const outbox = useOutbox();

const subject = (name: string) => `The secret of client ${name} was rotated`;
const rotateSecret = (token: string, clientId: string, body?: unknown) =>
  callAdmin(rotate, { token, method: 'POST', pathParameters: { client_id: clientId }, ...(body !== undefined ? { body } : {}) });

let adminClient: Awaited<ReturnType<typeof adminClientToken>>;
beforeAll(async () => {
  await ensureScopes('openid', 'admin');
  adminClient = await adminClientToken();
});

describe('the admins are mailed when a client secret is rotated (behaviour ADMIN-24)', () => {
  it('every admin gets one mail naming the client, the actor, when, and the overlap end; plain users get none; never a secret', async () => {
    const admins = [await createUser({ admin: true }), await createUser({ admin: true })];
    const plain = await createUser();
    const { client, secret: old } = await createClientWithSecret({ name: 'Billing sync' });
    const result = await rotateSecret(adminClient.token, client.clientId);
    expect(result.statusCode).toBe(200);
    const body = jsonBody(result);
    const until = String(body.previous_secret_expires_at);
    for (const admin of admins) {
      const mails = mailsTo(outbox, admin.email!).filter((m) => m.subject === subject('Billing sync'));
      expect(mails).toHaveLength(1);
      const text = mails[0]!.text;
      expect(text).toContain(`Client:      Billing sync (${client.clientId})`);
      expect(text).toContain(`Rotated by:  the admin client Test admin client (${adminClient.client.clientId})`);
      expect(text).toMatch(/When: {8}\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
      expect(text).toContain(`Old secret:  works until ${until.slice(0, 16).replace('T', ' ')} UTC`);
      for (const secret of [String(body.client_secret), old!]) {
        expect(JSON.stringify(mails[0])).not.toContain(secret);
      }
    }
    expect(mailsTo(outbox, plain.email!)).toHaveLength(0);
  });

  it('an admin user as actor is named by address; an overlap of 0 says the old secret stopped at once', async () => {
    const { token, user } = await adminUserToken();
    const { client } = await createClientWithSecret({ name: 'Stopped at once' });
    expect((await rotateSecret(token, client.clientId, { overlap_seconds: 0 })).statusCode).toBe(200);
    const mails = mailsTo(outbox, user.email!).filter((m) => m.subject === subject('Stopped at once'));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(`Rotated by:  the admin ${user.email} (user ${user.id})`);
    expect(mails[0]!.text).toContain('Old secret:  stopped working at once');
  });

  it('a rotation from the dashboard is mailed the same way, naming the admin who rotated it (behaviour DASH-5)', async () => {
    const admin = await createUser({ admin: true, test: false });
    const session = randomBytes(32).toString('base64url');
    const authTime = Math.floor(Date.now() / 1000);
    await getSessions().createSession(
      session,
      { userId: admin.id, authTime, amr: ['pwd', 'otp', 'mfa'], expiresAtEpoch: authTime + 3600 },
      new Date().toISOString(),
    );
    const { client } = await createClientWithSecret({ name: 'Rotated in the dashboard' });
    const path = `/dashboard/clients/${client.clientId}/secret`;
    const call = (method: 'GET' | 'POST', body?: Record<string, string>) =>
      dashboard(
        apiGatewayEvent({
          method,
          path,
          resource: '/dashboard/{proxy+}',
          pathParameters: { proxy: path.replace(/^\/dashboard\//, '') },
          headers: {
            Accept: 'text/html',
            Cookie: `__Host-session=${session}`,
            ...(body
              ? { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-origin', Origin: process.env.BASE_URL! }
              : {}),
          },
          ...(body ? { body: new URLSearchParams(body).toString() } : {}),
        }),
        lambdaContext,
      );
    // The confirmation page's own form, whatever hidden fields it carries.
    const confirmation = (await call('GET')).body;
    const hidden = Object.fromEntries(
      [...confirmation.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!]),
    );
    const rotated = await call('POST', { csrf: csrfTokenOf(session), ...hidden, overlap_seconds: '0' });
    expect(rotated.statusCode).toBeLessThan(400);
    const mails = mailsTo(outbox, admin.email!).filter((m) => m.subject === subject('Rotated in the dashboard'));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(`Rotated by:  the admin ${admin.email} (user ${admin.id})`);
  });

  it('an undeliverable mail still rotates: 200 with the new secret, which works (the answer is the only copy)', async () => {
    const { client } = await createClientWithSecret({ name: 'Mail down' });
    const before = outboxMails(outbox).length;
    // Fault injection in the local mailer: a file where the outbox folder should be.
    rmSync(outbox, { recursive: true, force: true });
    writeFileSync(outbox, 'not a folder');
    let result: Awaited<ReturnType<typeof rotateSecret>>;
    try {
      result = await rotateSecret(adminClient.token, client.clientId);
    } finally {
      rmSync(outbox, { force: true });
    }
    expect(before).toBeGreaterThan(0);
    expect(result.statusCode).toBe(200);
    const secret = String(jsonBody(result).client_secret);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const token = await postToken({ grant_type: 'client_credentials' }, { headers: { Authorization: basic(client.clientId, secret) } });
    expect(token.status).toBe(200);
  });
});

describe('the admins are read from the user list with a filter, bounded (behaviour ADMIN-25)', () => {
  it('finds only users with the admin flag, oldest first, and says when a limit stopped the reading', async () => {
    const all = await getUsers().admins({ usersRead: 10_000, admins: 100 });
    expect(all.complete).toBe(true);
    expect(all.admins.length).toBeGreaterThanOrEqual(3);
    const everyone = await getUsers().list(1000);
    // The admin list is newest first (behaviour ADMIN-22); the admins are read oldest first.
    const flagged = everyone.entries
      .map((entry) => entry.item)
      .filter((user) => user.admin)
      .map((user) => user.id)
      .reverse();
    expect(all.admins.map((admin) => admin.id)).toEqual(flagged);
    const fewAdmins = await getUsers().admins({ usersRead: 10_000, admins: 1 });
    expect([fewAdmins.admins.map((admin) => admin.id), fewAdmins.complete]).toEqual([[flagged[0]], false]);
    const fewUsers = await getUsers().admins({ usersRead: 1, admins: 100 });
    expect(fewUsers.complete).toBe(false);
    expect(fewUsers.admins.length).toBeLessThanOrEqual(1);
  });
});

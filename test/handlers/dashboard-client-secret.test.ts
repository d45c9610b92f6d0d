/**
 * The dashboard's "Rotate secret" action (behaviour ADMIN-20, DASH-5, DASH-4): a confirmation page
 * picking the overlap, the new secret once on the page the POST redirects to (DASH-13), the same core use case as the
 * admin API audited with the admin as actor; a re-posted form and bad input change nothing.
 */
import { getAuditLog } from '../../lambdas/wiring/audit';
import { getClientRepository } from '../../lambdas/wiring/repositories';
import { type DashboardSession, dashboardGet, dashboardPost, dashboardSessionOf } from '../support/dashboard-calls';
import { createClient, createClientWithSecret, createUser } from '../support/fixtures';
import { basic, postToken } from '../support/token-calls';

let admin: DashboardSession;
beforeAll(async () => {
  admin = await dashboardSessionOf(await createUser({ admin: true, test: false }));
});

/** `address` may carry a query (a shown-once page's handle does, behaviour DASH-13). */
const call = (method: 'GET' | 'POST', address: string, body?: Record<string, string>) =>
  method === 'GET' ? dashboardGet(admin, address) : dashboardPost(admin, address, body ?? {});

const rotatingMark = (page: string) => /name="rotating" value="([^"]+)"/.exec(page)![1]!;
const clientCredentials = (clientId: string, secret: string) =>
  postToken({ grant_type: 'client_credentials' }, { headers: { Authorization: basic(clientId, secret) } });
async function entriesBy(adminId: string) {
  const page = await getAuditLog().page({
    from: new Date(Date.now() - 3_600_000).toISOString(),
    to: new Date(Date.now() + 60_000).toISOString(),
    limit: 100,
  });
  return page.items.filter((entry) => entry.actor.kind === 'admin-user' && entry.actor.userId === adminId);
}

describe('behaviour ADMIN-20, DASH-5: Rotate secret on the client page', () => {
  it('confirms, shows the new secret once, keeps the old one for the chosen overlap, and is audited with the admin as actor', async () => {
    const { client, secret: old } = await createClientWithSecret();
    const page = await call('GET', `/dashboard/clients/${client.clientId}`);
    expect(page.body).toContain(`href="/dashboard/clients/${client.clientId}/secret"`);
    const confirmation = await call('GET', `/dashboard/clients/${client.clientId}/secret`);
    expect(confirmation.statusCode).toBe(200);
    expect(confirmation.body).not.toContain('$argon2id$');
    const answer = await call('POST', `/dashboard/clients/${client.clientId}/secret`, {
      overlap_seconds: '3600',
      rotating: rotatingMark(confirmation.body),
    });
    expect(answer.statusCode).toBe(303);
    const shown = await call('GET', String(answer.headers?.Location));
    expect(shown.headers?.['Cache-Control'] ?? shown.headers?.['cache-control']).toMatch(/no-store/);
    const fresh = /id="client-secret">([^<]+)</.exec(shown.body)![1]!;
    expect(shown.body).toMatch(/id="previous-secret">The previous secret keeps working until /);
    expect((await clientCredentials(client.clientId, old!)).status).toBe(200);
    expect((await clientCredentials(client.clientId, fresh)).status).toBe(200);
    expect((await call('GET', `/dashboard/clients/${client.clientId}`)).body).not.toContain(fresh);
    expect((await entriesBy(admin.user.id)).filter((e) => e.clientId === client.clientId).map((e) => e.type)).toEqual([
      'client.secret_rotate',
    ]);
  });

  it('a re-posted form (a reload of the answer) is refused and rotates nothing again', async () => {
    const { client } = await createClientWithSecret();
    const mark = rotatingMark((await call('GET', `/dashboard/clients/${client.clientId}/secret`)).body);
    expect((await call('POST', `/dashboard/clients/${client.clientId}/secret`, { overlap_seconds: '0', rotating: mark })).statusCode).toBe(
      303,
    );
    const rotated = await getClientRepository().get(client.clientId);
    const again = await call('POST', `/dashboard/clients/${client.clientId}/secret`, { overlap_seconds: '0', rotating: mark });
    expect(again.statusCode).toBe(400);
    expect(again.body).toMatch(/class="error"/);
    expect(again.body).toMatch(/rotated since the page was shown/);
    expect(await getClientRepository().get(client.clientId)).toEqual(rotated);
  });

  it.each([
    ['an overlap not offered', { overlap_seconds: '99' }, 400],
    ['no overlap', {}, 400],
  ])('DASH-4: %s is a readable page, nothing written', async (_what, fields, status) => {
    const { client } = await createClientWithSecret();
    const mark = rotatingMark((await call('GET', `/dashboard/clients/${client.clientId}/secret`)).body);
    const response = await call('POST', `/dashboard/clients/${client.clientId}/secret`, { rotating: mark, ...fields });
    expect(response.statusCode).toBe(status);
    expect(response.body).toMatch(/class="error"/);
    expect(await getClientRepository().get(client.clientId)).toEqual(client);
  });

  it('DASH-4: a public client offers no rotation and its POST is refused with a readable page, nothing written', async () => {
    const client = await createClient({ kind: 'app' });
    expect((await call('GET', `/dashboard/clients/${client.clientId}`)).body).not.toContain('/secret"');
    expect((await call('GET', `/dashboard/clients/${client.clientId}/secret`)).statusCode).toBe(400);
    const response = await call('POST', `/dashboard/clients/${client.clientId}/secret`, { overlap_seconds: '0', rotating: 'x' });
    expect(response.statusCode).toBe(400);
    expect(response.body).toMatch(/public client: it has no secret/);
    expect(await getClientRepository().get(client.clientId)).toEqual(client);
  });
});

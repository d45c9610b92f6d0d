/**
 * Behaviour ADMIN-24, ADMIN-25: every admin is told by mail that a client's secret was rotated, so
 * a rotation nobody expected (a stolen admin token, a mistake) is noticed while the old secret
 * still works. Sent after the rotation is written and never failing it: the new secret exists
 * only in the rotation's answer, and the replaced secret's overlap is already running, so a
 * failed answer would lose the secret a client must change over to.
 */
import type { ClientSecretRotatedNotice, RotatedBy } from '../notices';
import type { Logger, Notifier } from '../ports';
import type { AdminDirectory, ClientStore, SecretRotation, UserStore } from './ports';

/**
 * Behaviour ADMIN-25: the user list is read with a filter, so its cost grows with the users, not
 * the admins; 10,000 users is about 10 pages of DynamoDB reads, within the function's time. 25 mails
 * sent one after another stay within SES's sending rate and the invocation's deadline.
 */
export const adminMailLimits = { usersRead: 10_000, admins: 25 } as const;

export interface SecretRotationMailDependencies {
  readonly admins: AdminDirectory;
  /** Who rotated it, named by address or client name rather than an id alone. */
  readonly users: Pick<UserStore, 'get'>;
  readonly clients: Pick<ClientStore, 'get'>;
  readonly notifier: Notifier<'client-secret-rotated'>;
  readonly log: Logger;
  readonly issuer: string;
}

export async function mailAdminsOfRotation(deps: SecretRotationMailDependencies, rotation: SecretRotation): Promise<void> {
  const clientId = rotation.client.clientId;
  let found: Awaited<ReturnType<AdminDirectory['admins']>>;
  try {
    found = await deps.admins.admins(adminMailLimits);
  } catch (error) {
    deps.log.warn('client-secret rotation not mailed: the admins could not be listed', { clientId, error: (error as Error).name });
    return;
  }
  if (!found.complete) {
    deps.log.warn('client-secret rotation mailed only to the admins found within the limits', { clientId, ...adminMailLimits });
  }
  const notice: ClientSecretRotatedNotice = {
    kind: 'client-secret-rotated',
    client: { clientId, name: rotation.client.name, registrationType: rotation.client.registrationType },
    rotatedBy: await rotatedBy(deps, rotation.actor),
    at: rotation.at,
    ...(rotation.previousSecretExpiresAt ? { previousSecretExpiresAt: rotation.previousSecretExpiresAt } : {}),
    issuer: deps.issuer,
  };
  const addresses = new Set(found.admins.flatMap((admin) => (admin.email ? [admin.email] : [])));
  for (const to of addresses) {
    try {
      await deps.notifier.notify(to, notice);
    } catch (error) {
      deps.log.warn('client-secret rotation mail not sent', { clientId, error: (error as Error).name });
    }
  }
}

/** The actor with what a reader recognises; only its id when that cannot be read (the mail still goes). */
async function rotatedBy(
  deps: Pick<SecretRotationMailDependencies, 'users' | 'clients'>,
  actor: SecretRotation['actor'],
): Promise<RotatedBy> {
  try {
    if (actor.kind === 'admin-user') {
      const user = await deps.users.get(actor.userId);
      return { ...actor, ...(user?.email ? { email: user.email } : {}), ...(user?.name ? { name: user.name } : {}) };
    }
    const client = await deps.clients.get(actor.clientId);
    return { ...actor, ...(client?.name ? { name: client.name } : {}) };
  } catch {
    return actor;
  }
}

/**
 * The admins' mail of a client-secret rotation never fails the rotation (behaviour ADMIN-24) and
 * says when the admins' list was cut short (ADMIN-25): the core use case with in-memory parts.
 */
import {
  adminMailLimits,
  mailAdminsOfRotation,
  type SecretRotationMailDependencies,
} from '../../../lambdas/core/admin/secret-rotation-mail';
import type { AdminRecipient, SecretRotation } from '../../../lambdas/core/admin/ports';
import type { Client } from '../../../lambdas/core/model';
import type { LogFields } from '../../../lambdas/core/ports';

const rotation: SecretRotation = {
  client: { clientId: 'cli_1', name: 'Reports' } as Client,
  actor: { kind: 'admin-client', clientId: 'cli_admin' },
  at: '2026-05-06T12:34:56.789Z',
};

function parts(admins: () => Promise<{ admins: readonly AdminRecipient[]; complete: boolean }>, failFor: string[] = []) {
  const sent: string[] = [];
  const warnings: [string, LogFields | undefined][] = [];
  const deps: SecretRotationMailDependencies = {
    admins: { admins },
    users: { get: async () => undefined },
    clients: { get: async () => undefined },
    notifier: {
      notify: async (to) => {
        if (failFor.includes(to)) throw new Error('MessageRejected');
        sent.push(to);
      },
    },
    log: { debug: () => {}, info: () => {}, error: () => {}, warn: (message, fields) => void warnings.push([message, fields]) },
    issuer: 'https://auth.example.org',
  };
  return { deps, sent, warnings };
}

const admin = (id: string, email?: string): AdminRecipient => ({ id, name: id, ...(email ? { email } : {}) });

describe('mailAdminsOfRotation (behaviour ADMIN-24, ADMIN-25)', () => {
  it('an admins list that cannot be read is logged, and the rotation still answers', async () => {
    const { deps, sent, warnings } = parts(async () =>
      Promise.reject(Object.assign(new Error('x'), { name: 'ProvisionedThroughputExceededException' })),
    );
    await expect(mailAdminsOfRotation(deps, rotation)).resolves.toBeUndefined();
    expect(sent).toEqual([]);
    expect(warnings).toEqual([
      [
        'client-secret rotation not mailed: the admins could not be listed',
        { clientId: 'cli_1', error: 'ProvisionedThroughputExceededException' },
      ],
    ]);
  });

  it('one undeliverable mail is logged and the other admins are still mailed; an admin without an address is skipped', async () => {
    const { deps, sent, warnings } = parts(
      async () => ({ admins: [admin('usr_a', 'a@example.org'), admin('usr_b', 'b@example.org'), admin('usr_c')], complete: true }),
      ['a@example.org'],
    );
    await mailAdminsOfRotation(deps, rotation);
    expect(sent).toEqual(['b@example.org']);
    expect(warnings.map(([message]) => message)).toEqual(['client-secret rotation mail not sent']);
    expect(JSON.stringify(warnings)).not.toContain('a@example.org');
  });

  it('reads within its limits, and a list cut short by them is logged', async () => {
    let asked: unknown;
    const { deps, sent, warnings } = parts(async (...args: unknown[]) => {
      asked = args[0];
      return { admins: [admin('usr_a', 'a@example.org')], complete: false };
    });
    await mailAdminsOfRotation(deps, rotation);
    expect(asked).toEqual(adminMailLimits);
    expect(sent).toEqual(['a@example.org']);
    expect(warnings).toEqual([
      ['client-secret rotation mailed only to the admins found within the limits', { clientId: 'cli_1', ...adminMailLimits }],
    ]);
  });
});

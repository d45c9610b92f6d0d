/**
 * The users an ID-JAG creates on first use (behaviour IDJAG-5), on DynamoDB Local: the user, its
 * address and its environment grant in one transaction, or nothing at all.
 */
import { randomUUID } from 'node:crypto';
import { DynamoFederatedUsers } from '../../lambdas/adapters/dynamodb/federated-users';
import { newId } from '../../lambdas/core/ids';
import type { User } from '../../lambdas/core/model';
import { getContainer } from '../../lambdas/wiring/container';
import { getEnvironments, getUsers } from '../../lambdas/wiring/repositories';
import { getStorage } from '../../lambdas/wiring/storage';
import { createEnvironment } from '../support/fixtures';

const federated = () => new DynamoFederatedUsers(getStorage().db, getStorage().tables.main, getUsers());
const at = new Date().toISOString();
const userWith = (email: string): User => ({
  id: newId('usr_', getContainer().random),
  email,
  name: 'Federated',
  admin: false,
  test: false,
  createdAt: at,
  emailVerifiedAt: at,
});

describe('creating a federated user (behaviour IDJAG-5)', () => {
  it('writes the user, its address and its grant of the environment together', async () => {
    const environmentId = await createEnvironment();
    const user = userWith(`fed-${randomUUID()}@example.test`);
    expect(await federated().createInEnvironment(user, environmentId, at)).toBe('created');
    expect(await federated().findByEmail(user.email!)).toMatchObject({ id: user.id, emailVerifiedAt: at });
    expect(await getEnvironments().hasAccess(user.id, environmentId)).toBe(true);
  });

  it('a second user with the address (a concurrent first use) is refused, and nothing of it is written', async () => {
    const environmentId = await createEnvironment();
    const email = `fed-${randomUUID()}@example.test`;
    const first = userWith(email);
    const second = userWith(email);
    expect(await federated().createInEnvironment(first, environmentId, at)).toBe('created');
    expect(await federated().createInEnvironment(second, environmentId, at)).toBe('address-taken');
    expect(await getUsers().get(second.id)).toBeUndefined();
    expect(await getEnvironments().hasAccess(second.id, environmentId)).toBe(false);
  });

  it('an environment that is gone creates no user (behaviour ENV-4)', async () => {
    const user = userWith(`fed-${randomUUID()}@example.test`);
    expect(await federated().createInEnvironment(user, `env_gone${randomUUID().slice(0, 8)}`, at)).toBe('no-environment');
    expect(await getUsers().get(user.id)).toBeUndefined();
    expect(await getUsers().findByEmail(user.email!)).toBeUndefined();
  });
});

/**
 * A token that carries a user's `sub` is issued only while the user exists and still
 * holds the client's environment (spec 8: re-checked on every rotation; issue 3). Both
 * reads are strongly consistent where it matters (the grant), so a revocation counts at once.
 */
import { InvalidGrantError } from '../errors';
import type { Client, User } from '../model';
import type { EnvironmentAccess, UserDirectory } from './ports';

export async function requireUserAccess(
  userId: string,
  client: Pick<Client, 'environmentId'>,
  deps: { readonly users: UserDirectory; readonly environments: EnvironmentAccess },
): Promise<User> {
  const [user, allowed] = await Promise.all([deps.users.get(userId), deps.environments.hasAccess(userId, client.environmentId)]);
  if (!user) throw new InvalidGrantError('The grant is no longer valid.', `user ${userId} no longer exists`);
  if (!allowed) {
    throw new InvalidGrantError('The grant is no longer valid.', `user ${userId} lost access to environment ${client.environmentId}`);
  }
  return user;
}

/**
 * A token that carries a user's `sub` is issued only while the user exists and still
 * holds the client's environment (behaviour ENV-2: re-checked on every rotation). Both
 * reads are strongly consistent where it matters (the grant), so a revocation counts at once.
 */
import { requiredEnvironment } from '../authorization-code';
import { InvalidGrantError } from '../errors';
import type { Client, User } from '../model';
import type { EnvironmentAccess, UserDirectory } from './ports';

/** The same environment rule as the authorization step: dynamic clients answer to DCR_ENVIRONMENT_ID. */
export async function requireUserAccess(
  userId: string,
  client: Client,
  deps: { readonly users: UserDirectory; readonly environments: EnvironmentAccess; readonly dcrEnvironmentId?: string },
): Promise<User> {
  const environmentId = requiredEnvironment(client, deps.dcrEnvironmentId);
  const [user, allowed] = await Promise.all([deps.users.get(userId), deps.environments.hasAccess(userId, environmentId)]);
  if (!user) throw new InvalidGrantError('The grant is no longer valid.', `user ${userId} no longer exists`);
  if (!allowed) {
    throw new InvalidGrantError('The grant is no longer valid.', `user ${userId} lost access to environment ${environmentId}`);
  }
  return user;
}

/** Environment grants for test data written straight to the repositories. */
import { ConflictError } from '../../lambdas/core/errors';
import { getEnvironments } from '../../lambdas/wiring/repositories';

/**
 * Grants `environmentId` to the user, first creating the environment when the test made its id
 * up: a grant counts only for the environment it was made for, which must exist (behaviour ENV-4).
 */
export async function grantTestEnvironment(userId: string, environmentId: string, grantedAt: string): Promise<void> {
  const environments = getEnvironments();
  if (!(await environments.get(environmentId))) {
    await environments.create({ id: environmentId, name: 'Test environment', dcr: false, createdAt: grantedAt }).catch((error: unknown) => {
      if (!(error instanceof ConflictError)) throw error;
    });
  }
  if (!(await environments.grant(userId, environmentId, grantedAt))) throw new Error(`environment ${environmentId} could not be granted`);
}

/**
 * A page that names environments or offers them in a select reads all of them, not the first page
 * of the list (behaviour DASH-11, DASH-17): core/admin/environments.ts everyEnvironment against
 * DynamoDB Local, in tables of this file's own.
 */
import { everyEnvironment } from '../../lambdas/core/admin/environments';
import { getEnvironments } from '../../lambdas/wiring/repositories';
import { useOwnTables } from '../support/own-tables';

useOwnTables();

it('reads past the list’s first page of 100: every one of 130 environments is named (behaviour DASH-11)', async () => {
  const at = new Date().toISOString();
  const ids = Array.from({ length: 130 }, (_, i) => `env_walk${String(i).padStart(3, '0')}`);
  for (let i = 0; i < ids.length; i += 10) {
    await Promise.all(
      ids
        .slice(i, i + 10)
        .map((id) =>
          getEnvironments().create(
            { id, name: `Stage ${id}`, dcr: false, createdAt: at },
            { type: 'environment.create', at, environmentId: id, actor: { kind: 'admin-client', clientId: 'tgc_test' } },
          ),
        ),
    );
  }
  const firstPage = await getEnvironments().list(100);
  expect(firstPage.items.length).toBeLessThan(130);
  const every = await everyEnvironment({ environments: getEnvironments() });
  expect(every.map((environment) => environment.id).sort()).toEqual(ids);
});

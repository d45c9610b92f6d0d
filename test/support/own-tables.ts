/**
 * Fresh tables for one test file, for records the whole run would otherwise share: the site
 * settings are a single item, and a test file changing the MFA policy in the shared tables would
 * change the sign-ins of every file running beside it. Jest gives each file its own copy of
 * process.env, so the names set here stay in this file.
 */
import { createDynamoClient } from '../../lambdas/adapters/dynamodb/client';
import { ensureTables, physicalTableNames, tableEnv } from '../../lambdas/local/tables';
import { resetContainer } from '../../lambdas/wiring/container';
import { uniqueSuffix } from './fixtures';

export function useOwnTables(): void {
  beforeAll(async () => {
    const names = physicalTableNames(`own-${uniqueSuffix()}-`);
    const client = createDynamoClient({ endpoint: process.env.DYNAMODB_ENDPOINT! });
    await ensureTables(client, names);
    client.destroy();
    Object.assign(process.env, tableEnv(names));
    resetContainer();
  });
}

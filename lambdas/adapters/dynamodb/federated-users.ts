/**
 * The users an ID-JAG names by address, and those it creates on first use (behaviour IDJAG-5):
 * the user, its `EMAIL#` uniqueness item and its grant of the environment in one transaction,
 * conditioned on the environment still being the one read (behaviour ENV-4), so a user is never
 * left created without the access it was created for, nor with a grant of a deleted environment.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { FederatedUsers } from '../../core/grants/ports';
import type { User } from '../../core/model';
import { cancellationCodes, isConditionFailure } from './items';
import * as keys from './keys/item-keys';
import * as mainItems from './keys/main-items';
import type { DynamoUserRepository } from './user-repository';

export class DynamoFederatedUsers implements FederatedUsers {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly users: Pick<DynamoUserRepository, 'findByEmail'>,
  ) {}

  findByEmail(email: string): Promise<User | undefined> {
    return this.users.findByEmail(email);
  }

  async createInEnvironment(user: User, environmentId: string, grantedAt: string): Promise<'created' | 'address-taken' | 'no-environment'> {
    const { Item: environment } = await this.db.send(
      new GetCommand({ TableName: this.table, Key: keys.environment(environmentId), ConsistentRead: true }),
    );
    if (!environment) return 'no-environment';
    const generation = environment.generation as string | undefined;
    try {
      // The request token makes the client's resend after a lost reply the same write, not a conflict with itself.
      await this.db.send(
        new TransactWriteCommand({
          ClientRequestToken: randomUUID(),
          TransactItems: [
            {
              ConditionCheck: {
                TableName: this.table,
                Key: keys.environment(environmentId),
                ConditionExpression: 'generation = :generation',
                ExpressionAttributeValues: { ':generation': generation },
              },
            },
            { Put: { TableName: this.table, Item: mainItems.user(user), ConditionExpression: 'attribute_not_exists(pk)' } },
            {
              Put: { TableName: this.table, Item: mainItems.email(user.email!, user.id), ConditionExpression: 'attribute_not_exists(pk)' },
            },
            { Put: { TableName: this.table, Item: mainItems.environmentGrant(user.id, environmentId, grantedAt, generation) } },
          ],
        }),
      );
      return 'created';
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return cancellationCodes(error)[0] === 'ConditionalCheckFailed' ? 'no-environment' : 'address-taken';
    }
  }
}

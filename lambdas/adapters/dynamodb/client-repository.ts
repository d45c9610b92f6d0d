import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '../../core/errors';
import type { Client, RegistrationType } from '../../core/model';
import { isConditionFailure, withoutKeys } from './items';
import { queryIndexPage, type Page } from './pages';

/** Clients in the main table: pk `CLIENT#<clientId>`, listed per registration type via gsi1. */
export class DynamoClientRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async get(clientId: string): Promise<Client | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: { pk: `CLIENT#${clientId}`, sk: 'CLIENT' } }));
    return Item ? withoutKeys<Client>(Item) : undefined;
  }

  async create(client: Client): Promise<void> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: {
            pk: `CLIENT#${client.clientId}`,
            sk: 'CLIENT',
            gsi1pk: `CLIENTS#${client.registrationType}`,
            gsi1sk: `${client.createdAt}#${client.clientId}`,
            ...client,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw new ConflictError(`client ${client.clientId}`);
      throw error;
    }
  }

  list(registrationType: RegistrationType, limit: number, cursor?: string): Promise<Page<Client>> {
    return queryIndexPage<Client>(this.db, this.table, `CLIENTS#${registrationType}`, limit, cursor);
  }

  /** Replaces the granted scopes; the caller narrows API keys (spec 2.5 rule 3). */
  async updateScopes(clientId: string, scopes: readonly string[]): Promise<Client | undefined> {
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: `CLIENT#${clientId}`, sk: 'CLIENT' },
          UpdateExpression: 'SET scopes = :scopes',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':scopes': scopes },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes ? withoutKeys<Client>(Attributes) : undefined;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  }

  async delete(clientId: string): Promise<boolean> {
    const { Attributes } = await this.db.send(
      new DeleteCommand({ TableName: this.table, Key: { pk: `CLIENT#${clientId}`, sk: 'CLIENT' }, ReturnValues: 'ALL_OLD' }),
    );
    return Attributes !== undefined;
  }
}

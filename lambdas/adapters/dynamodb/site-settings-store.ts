/**
 * The site settings record (main `SITE`/`SETTINGS`) and its audit entries (activity
 * `AUDIT#SITE`), written together in one transaction: a change is never stored unaudited.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SiteSettingsStore } from '../../core/site/ports';
import type { SiteAuditEntry, StoredSiteSettings } from '../../core/site/settings';
import type { PhysicalTableNames } from './client';
import { auditLogItem } from './audit-log';
import { isConditionFailure, withoutKeys } from './items';
import * as keys from './keys/item-keys';

export class DynamoSiteSettingsStore implements SiteSettingsStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tables: Pick<PhysicalTableNames, 'main' | 'activity'>,
    private readonly newRowId: () => string = randomUUID,
  ) {}

  async get(): Promise<StoredSiteSettings | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tables.main, Key: keys.siteSettings(), ConsistentRead: true }));
    return Item ? withoutKeys<StoredSiteSettings>(Item) : undefined;
  }

  async save(next: StoredSiteSettings, audit: SiteAuditEntry): Promise<boolean> {
    const previousVersion = next.version - 1;
    try {
      await this.db.send(
        new TransactWriteCommand({
          // The SDK resends a transaction whose reply was lost; with the same token DynamoDB
          // answers the resend as the first (idempotent), instead of failing its version check.
          ClientRequestToken: this.newRowId(),
          TransactItems: [
            {
              Put: {
                TableName: this.tables.main,
                Item: { ...keys.siteSettings(), ...next },
                ConditionExpression: previousVersion === 0 ? 'attribute_not_exists(pk)' : 'version = :previous',
                ...(previousVersion === 0 ? {} : { ExpressionAttributeValues: { ':previous': previousVersion } }),
              },
            },
            // In the audit log's day index too, so GET /api/admin/audit and the dashboard list it.
            { Put: { TableName: this.tables.activity, Item: auditLogItem(audit, this.newRowId()) } },
          ],
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }
}

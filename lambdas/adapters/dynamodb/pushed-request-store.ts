/**
 * Pushed authorization requests (RFC 9126, behaviour AUTHZ-16, AUTHZ-17) in the ephemeral table, keyed by
 * the digest of their request_uri: a table dump yields no usable reference.
 */
import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { PushedAuthorizationRequest, PushedRequestStore } from '../../core/pushed-authorization';
import { claimOnce } from './claim';
import * as keys from './keys/item-keys';

export class DynamoPushedRequestStore implements PushedRequestStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /**
   * No condition: the request_uri is 256 fresh random bits, and a resent put writes the same item.
   * The parameters are kept as the form-encoded string they came in: any name a client sends
   * (`constructor`, `__proto__`) stays a plain field, which a map attribute's marshalling refuses.
   */
  async savePushedRequest(requestUri: string, request: PushedAuthorizationRequest, expiresAtEpoch: number): Promise<void> {
    const item = { clientId: request.clientId, parameters: new URLSearchParams(Object.entries(request.parameters)).toString() };
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: { ...keys.pushedAuthorizationRequest(requestUri), request: item, ttl: expiresAtEpoch },
      }),
    );
  }

  /** Single use (RFC 9126 4): of two uses only one claims it; a resent claim passes as the same one (behaviour ERR-5). */
  async claimPushedRequest(requestUri: string, nowEpoch: number): Promise<PushedAuthorizationRequest | undefined> {
    const item = (await claimOnce(this.db, this.table, keys.pushedAuthorizationRequest(requestUri), nowEpoch))?.request as
      | { clientId: string; parameters: string }
      | undefined;
    return item && { clientId: item.clientId, parameters: Object.fromEntries(new URLSearchParams(item.parameters)) };
  }
}

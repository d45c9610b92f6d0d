/** The one-time identifier store (jti replay cache) every proof and assertion check shares. */
import { DynamoSingleUseIds } from '../adapters/dynamodb/single-use-ids';
import { getContainer, perContainer } from './container';
import { getStorage } from './storage';

export const getSingleUseIds = /* @__PURE__ */ perContainer(
  () => new DynamoSingleUseIds(getStorage().db, getStorage().tables.ephemeral, getContainer().clock),
);

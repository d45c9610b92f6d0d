/** The store of pushed authorization requests (RFC 9126), from this container. */
import { DynamoPushedRequestStore } from '../adapters/dynamodb/pushed-request-store';
import type { PushDependencies } from '../core/pushed-authorization';
import { getContainer, perContainer } from './container';
import { getStorage } from './storage';

export const getPushedRequests = /* @__PURE__ */ perContainer(
  () => new DynamoPushedRequestStore(getStorage().db, getStorage().tables.ephemeral),
);

export const getPushDependencies = (): PushDependencies => {
  const { clock, random } = getContainer();
  return { pushedRequests: getPushedRequests(), clock, random };
};

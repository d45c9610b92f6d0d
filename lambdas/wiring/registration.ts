/** The per-network registration counter of POST /register (behaviour REG-6, REG-7), one per container. */
import { DynamoRegistrationCounter } from '../adapters/dynamodb/registration-counter';
import { perContainer } from './container';
import { getStorage } from './storage';

export const getRegistrationCounter = /* @__PURE__ */ perContainer(
  () => new DynamoRegistrationCounter(getStorage().db, getStorage().tables.ephemeral),
);

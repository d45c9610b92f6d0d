/** The passkey stores and settings of a container (behaviour PASSKEY-1..PASSKEY-9; lambdas/core/account/passkeys.ts). */
import { DynamoCeremonyStore, DynamoPasskeyStore } from '../adapters/dynamodb/passkey-store';
import type { PasskeyCeremonyDependencies, PasskeyDependencies } from '../core/account/passkeys';
import { getContainer, perContainer } from './container';
import { passkeyAddedMail } from '../presentation/mail/templates/passkey-added';
import { passkeyRemovedMail } from '../presentation/mail/templates/passkey-removed';
import { getNotifier } from './mail';
import type { PasskeySessionReaders } from '../presentation/passkey-pages';
import { getSessionReaders, getUsers } from './repositories';
import { getSite } from './site';
import { getStorage } from './storage';

const getStores = perContainer(() => {
  const { db, tables } = getStorage();
  return { passkeys: new DynamoPasskeyStore(db, tables.main, tables.activity), ceremonies: new DynamoCeremonyStore(db, tables.ephemeral) };
});

export const getPasskeyStore = () => getStores().passkeys;

/** The ceremonies and the page, which mail nothing: the sign-in doors and the page bundle no passkey mail. */
export function getPasskeyCeremonies(): PasskeyCeremonyDependencies {
  const { config, clock, random, log } = getContainer();
  const users = getUsers();
  const origin = new URL(config.baseUrl).origin;
  return {
    ...getStores(),
    clock,
    random,
    log,
    rpId: config.passkeyRpId,
    origin,
    rpName: new URL(config.baseUrl).host,
    baseUrl: config.baseUrl,
    // Strongly consistent: a password or address change a moment ago counts.
    currentUser: (id) => users.current(id),
  };
}

/** Adding, which tells the user (behaviour PASSKEY-12): the add door bundles the one mail it sends. */
export const getPasskeyAdding = (): PasskeyDependencies<'passkey-added'> => ({
  ...getPasskeyCeremonies(),
  notifier: getNotifier({ 'passkey-added': passkeyAddedMail }),
});

/** Adding and removing, which tell the user (behaviour PASSKEY-12). */
export const getPasskeys = (): PasskeyDependencies => ({
  ...getPasskeyCeremonies(),
  notifier: getNotifier({ 'passkey-added': passkeyAddedMail, 'passkey-removed': passkeyRemovedMail }),
});

/** The passkey pages' session check (lambdas/presentation/passkey-pages.ts): the session, its user, the MFA policy in force. */
export const getPasskeySessionReaders = (): PasskeySessionReaders => ({
  ...getSessionReaders(),
  mfaPolicy: async () => (await getSite().current()).mfaPolicy,
});

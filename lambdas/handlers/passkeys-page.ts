/**
 * GET /api/users/passkey: the user's passkeys, "Add a passkey" and Remove (behaviour PASSKEY-1,
 * PASSKEY-2). Each view starts a registration ceremony (5 minutes, single use).
 */
import { passkeyNotices, passkeysPageResponse, recentlySignedInUser, signInAgain } from '../presentation/passkey-pages';
import { withErrorPages } from '../presentation/page-errors';
import { httpHandler } from '../wiring/handler';
import { getPasskeyCeremonies, getPasskeySessionReaders } from '../wiring/passkeys';

export const handler = httpHandler(
  withErrorPages(async (event, container) => {
    const deps = getPasskeyCeremonies();
    const user = await recentlySignedInUser(event, container, getPasskeySessionReaders());
    if (!user) return signInAgain();
    const done = event.queryStringParameters?.done;
    const notice = done === 'added' || done === 'removed' ? passkeyNotices[done] : undefined;
    return passkeysPageResponse(container, deps, user, 200, notice ? { notice } : {});
  }),
);

/** POST /api/auth/signout: deletes the session and clears the cookie; answers the same with or without one. */
import { httpHandler } from '../wiring/handler';
import { htmlResponse, wantsHtml } from '../presentation/html';
import { withErrorPages } from '../presentation/page-errors';
import { assertSameOrigin } from '../http/same-origin';
import { endSession } from '../http/session';
import { signedOutPage } from '../presentation/views/messages';
import { getSessions } from '../wiring/repositories';

export const handler = httpHandler(
  withErrorPages(async (event, container) => {
    // A cross-site page must not be able to sign the user out either.
    assertSameOrigin(event, container.config.baseUrl);
    const headers = { 'Set-Cookie': await endSession(event, container, getSessions()) };
    return wantsHtml(event) ? htmlResponse(200, signedOutPage(), { headers }) : { statusCode: 204, headers, body: '' };
  }),
);

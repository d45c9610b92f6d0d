/**
 * POST /api/auth/passkey/options: a sign-in ceremony's PublicKeyCredentialRequestOptionsJSON
 * (behaviour PASSKEY-3, PASSKEY-4), fetched by the sign-in page's script. A POST, and
 * same-origin only: every call stores a ceremony.
 */
import { signInOptions } from '../core/account/passkeys';
import { jsonResponse } from '../http/response';
import { assertSameOrigin } from '../http/same-origin';
import { httpHandler } from '../wiring/handler';
import { getPasskeyCeremonies } from '../wiring/passkeys';

export const handler = httpHandler(async (event, container) => {
  assertSameOrigin(event, container.config.baseUrl);
  return jsonResponse(200, await signInOptions(getPasskeyCeremonies()));
});

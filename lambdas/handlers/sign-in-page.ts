/** GET /api/auth/signin: the sign-in form (behaviour SIGNIN-1 /api/auth/*); works without JavaScript. */
import { newSecret } from '../core/ids';
import { safeReturnTo } from '../core/sign-in';
import { httpHandler } from '../wiring/handler';
import { htmlResponse } from '../presentation/html';
import { signInPage } from '../presentation/views/sign-in';
import { endpointPaths } from '../core/paths';
import { getBrand } from '../wiring/site';

export const handler = httpHandler(async (event, container) => {
  const returnTo = safeReturnTo(event.queryStringParameters?.return_to ?? undefined);
  const passkeyNonce = newSecret(container.random);
  return htmlResponse(200, signInPage({ action: endpointPaths.signIn, hidden: { return_to: returnTo }, passkeyNonce }), {
    scriptNonce: passkeyNonce,
    brand: await getBrand(),
  });
});

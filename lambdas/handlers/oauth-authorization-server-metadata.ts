/** GET /.well-known/oauth-authorization-server (RFC 8414 section 3). */
import { authorizationServerMetadata } from '../core/discovery';
import { httpHandler } from '../http/handler';
import { jsonResponse, publicCache } from '../http/response';
import { getStorage } from '../runtime/storage';

export const handler = httpHandler(async (_event, runtime) =>
  jsonResponse(200, authorizationServerMetadata(runtime.config, await getStorage().scopes()), { cacheControl: publicCache }),
);

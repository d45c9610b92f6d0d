/** GET /.well-known/oauth-authorization-server (RFC 8414 section 3). */
import { authorizationServerMetadata } from '../core/discovery';
import { httpHandler } from '../wiring/handler';
import { jsonResponse, publicCache } from '../http/response';
import { getStorage } from '../wiring/storage';

export const handler = httpHandler(
  async (_event, container) =>
    jsonResponse(200, authorizationServerMetadata(container.config, await getStorage().scopes()), { cacheControl: publicCache }),
  { crossOrigin: true }, // route row flag crossOrigin (behaviour HTTP-6)
);

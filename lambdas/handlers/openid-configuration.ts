/** GET /.well-known/openid-configuration (OpenID Connect Discovery 1.0 section 4). */
import { openIdConfiguration } from '../core/discovery';
import { httpHandler } from '../wiring/handler';
import { jsonResponse, publicCache } from '../http/response';
import { getStorage } from '../wiring/storage';

export const handler = httpHandler(
  async (_event, container) =>
    jsonResponse(200, openIdConfiguration(container.config, await getStorage().scopes()), { cacheControl: publicCache }),
  { crossOrigin: true }, // route row flag crossOrigin (behaviour HTTP-6)
);

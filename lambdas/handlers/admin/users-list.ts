/** GET /api/admin/users?search&environment_id&admin&limit&cursor (behaviour ADMIN-22): newest first. */
import * as z from 'zod/mini';
import { findUsers } from '../../core/admin/user-list';
import { environmentId } from '../../http/admin-schemas';
import { pageRequest } from '../../http/admin-endpoint';
import { adminHandler } from '../../wiring/admin-handler';
import { pageView, userView } from '../../presentation/admin-views';
import { jsonResponse } from '../../http/response';
import { validate } from '../../http/validate';
import { getAdminWithoutMail } from '../../wiring/admin';

/** The query; exported for the OpenAPI document (bin/openapi.ts). */
export const filter = z.object({
  search: z.optional(z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(254))),
  environment_id: z.optional(environmentId),
  admin: z.optional(z.enum(['true', 'false'])),
});

export const handler = adminHandler(async (event) => {
  const query = validate(filter, event.queryStringParameters ?? {});
  const page = await findUsers(
    getAdminWithoutMail(),
    {
      ...(query.search ? { search: query.search } : {}),
      ...(query.environment_id ? { environmentId: query.environment_id } : {}),
      ...(query.admin ? { admin: query.admin === 'true' } : {}),
    },
    pageRequest(event),
  );
  return jsonResponse(200, pageView(page, userView));
});

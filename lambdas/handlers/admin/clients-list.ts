/**
 * GET /api/admin/clients?registration_type&search&type&environment_id&limit&cursor (behaviour
 * ADMIN-21): newest first; `registration_type` static (default) or dynamic.
 */
import * as z from 'zod/mini';
import { findClients } from '../../core/admin/client-list';
import { environmentId } from '../../http/admin-schemas';
import { pageRequest } from '../../http/admin-endpoint';
import { adminHandler } from '../../wiring/admin-handler';
import { clientView, pageView } from '../../presentation/admin-views';
import { jsonResponse } from '../../http/response';
import { validate } from '../../http/validate';
import { getAdminWithoutMail } from '../../wiring/admin';

/** The query; exported for the OpenAPI document (bin/openapi.ts). */
export const filter = z.object({
  registration_type: z._default(z.enum(['static', 'dynamic']), 'static'),
  search: z.optional(z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(200))),
  type: z.optional(z.enum(['public', 'confidential'])),
  environment_id: z.optional(environmentId),
});

export const handler = adminHandler(async (event) => {
  const query = validate(filter, event.queryStringParameters ?? {});
  const page = await findClients(
    getAdminWithoutMail(),
    {
      registrationType: query.registration_type,
      ...(query.search ? { search: query.search } : {}),
      ...(query.type ? { type: query.type } : {}),
      ...(query.environment_id ? { environmentId: query.environment_id } : {}),
    },
    pageRequest(event),
  );
  return jsonResponse(200, pageView(page, clientView));
});

/** GET /api/admin/clients?registration_type=static|dynamic (default static)&limit&cursor */
import * as z from 'zod/mini';
import { listClients } from '../../core/admin/clients';
import { pageRequest } from '../../http/admin-endpoint';
import { adminHandler } from '../../wiring/admin-handler';
import { clientView, pageView } from '../../presentation/admin-views';
import { jsonResponse } from '../../http/response';
import { validate } from '../../http/validate';
import { getAdminWithoutMail } from '../../wiring/admin';

/** The query; exported for the OpenAPI document (bin/openapi.ts). */
export const filter = z.object({ registration_type: z._default(z.enum(['static', 'dynamic']), 'static') });

export const handler = adminHandler(async (event) => {
  const { registration_type } = validate(filter, event.queryStringParameters ?? {});
  const { limit, cursor } = pageRequest(event);
  return jsonResponse(200, pageView(await listClients(getAdminWithoutMail(), registration_type, limit, cursor), clientView));
});

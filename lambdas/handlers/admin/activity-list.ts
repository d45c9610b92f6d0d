/**
 * GET /api/admin/clients/{client_id}/activity?from&to&request_type&success&limit&cursor
 * (behaviour LOG-8): the client's token requests and key exchanges, newest first (LOG-16), each
 * failure with its real reason; an unknown client is 404.
 */
import * as z from 'zod/mini';
import { activityRequestTypes, listClientActivity } from '../../core/admin/activity';
import { pageRequest, pathParameter } from '../../http/admin-endpoint';
import { activityView, pageView } from '../../presentation/admin-views';
import { jsonResponse } from '../../http/response';
import { validate } from '../../http/validate';
import { adminHandler } from '../../wiring/admin-handler';
import { getClientRepository, getTokenStore } from '../../wiring/repositories';

const isoTime = z.string().check(z.maxLength(40), z.regex(/^\d{4}-\d{2}-\d{2}/, 'must be an ISO 8601 time, e.g. 2030-01-01T00:00:00Z'));

/** The query; exported for the OpenAPI document (bin/openapi.ts). */
export const filter = z.object({
  from: z.optional(isoTime),
  to: z.optional(isoTime),
  request_type: z.optional(z.enum(activityRequestTypes)),
  success: z.optional(z.enum(['true', 'false'])),
});

export const handler = adminHandler(async (event) => {
  const clientId = pathParameter(event, 'client_id');
  const query = validate(filter, event.queryStringParameters ?? {});
  const page = await listClientActivity(
    { activity: getTokenStore(), clients: getClientRepository() },
    clientId,
    {
      ...(query.from ? { from: query.from } : {}),
      ...(query.to ? { to: query.to } : {}),
      ...(query.request_type ? { requestType: query.request_type } : {}),
      ...(query.success ? { success: query.success === 'true' } : {}),
    },
    pageRequest(event),
  );
  return jsonResponse(200, pageView(page, activityView));
});

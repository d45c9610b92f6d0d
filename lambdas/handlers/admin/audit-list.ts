/**
 * GET /api/admin/audit?from&to&type&actor&subject&limit&cursor (behaviour LOG-9, LOG-15): the admin
 * audit log, newest first; `to` defaults to now, `from` to 7 days earlier, at most 92 days apart.
 */
import * as z from 'zod/mini';
import { listAuditLog } from '../../core/admin/audit';
import { pageRequest } from '../../http/admin-endpoint';
import { auditEntryView, pageView } from '../../presentation/admin-views';
import { jsonResponse } from '../../http/response';
import { validate } from '../../http/validate';
import { adminHandler } from '../../wiring/admin-handler';
import { getAuditLog } from '../../wiring/audit';

const isoTime = z.string().check(z.maxLength(40), z.regex(/^\d{4}-\d{2}-\d{2}/, 'must be an ISO 8601 time, e.g. 2030-01-01T00:00:00Z'));

/** A user, client, key, environment or scope id, or a scope name (behaviour LOG-15). */
const auditId = z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(200));

/** The query; exported for the OpenAPI document (bin/openapi.ts). */
export const filter = z.object({
  from: z.optional(isoTime),
  to: z.optional(isoTime),
  type: z.optional(z.string().check(z.maxLength(64))),
  actor: z.optional(auditId),
  subject: z.optional(auditId),
});

export const handler = adminHandler(async (event, container) => {
  const query = validate(filter, event.queryStringParameters ?? {});
  const page = await listAuditLog(
    { audit: getAuditLog(), clock: container.clock },
    {
      ...(query.from ? { from: query.from } : {}),
      ...(query.to ? { to: query.to } : {}),
      ...(query.type ? { type: query.type } : {}),
      ...(query.actor ? { actor: query.actor } : {}),
      ...(query.subject ? { subject: query.subject } : {}),
    },
    pageRequest(event),
  );
  return jsonResponse(200, pageView(page, auditEntryView));
});

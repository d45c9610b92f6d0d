/** GET /api/admin/scopes: the whole catalog (small; no pagination). */
import { listScopes } from '../../core/admin/scopes';
import { adminHandler } from '../../wiring/admin-handler';
import { scopeView } from '../../presentation/admin-views';
import { jsonResponse } from '../../http/response';
import { getAdminWithoutMail } from '../../wiring/admin';

export const handler = adminHandler(async () => jsonResponse(200, { items: (await listScopes(getAdminWithoutMail())).map(scopeView) }));

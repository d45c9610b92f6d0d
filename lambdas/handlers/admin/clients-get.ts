/** GET /api/admin/clients/{client_id}: never the secret or its hash. */
import { getClient } from '../../core/admin/clients';
import { pathParameter } from '../../http/admin-endpoint';
import { adminHandler } from '../../wiring/admin-handler';
import { clientView } from '../../presentation/admin-views';
import { jsonResponse } from '../../http/response';
import { getAdminWithoutMail } from '../../wiring/admin';

export const handler = adminHandler(async (event) =>
  jsonResponse(200, clientView(await getClient(getAdminWithoutMail(), pathParameter(event, 'client_id')))),
);

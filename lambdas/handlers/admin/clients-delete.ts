/** DELETE /api/admin/clients/{client_id} → 204. */
import { deleteClient } from '../../core/admin/clients';
import { adminHandler, noContent, pathParameter } from '../../http/admin-endpoint';
import { getAdmin } from '../../runtime/admin';

export const handler = adminHandler(async (event) => {
  await deleteClient(getAdmin(), pathParameter(event, 'client_id'));
  return noContent();
});

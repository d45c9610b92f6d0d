/** DELETE /api/admin/clients/{client_id} → 204; its keys are revoked and its tokens stop at once (core/admin/clients). */
import { deleteClient } from '../../core/admin/clients';
import { noContent, pathParameter } from '../../http/admin-endpoint';
import { adminHandler } from '../../wiring/admin-handler';
import { adminActorOf } from '../../http/admin-caller';
import { getAdminWithoutMail } from '../../wiring/admin';

export const handler = adminHandler(async (event, _runtime, caller) => {
  const clientId = pathParameter(event, 'client_id');
  await deleteClient(getAdminWithoutMail(), adminActorOf(caller), clientId);
  return noContent();
});

/** DELETE /api/admin/site-logo → 204; the pages show the title alone. Audited as `site.logo.delete` (behaviour SITE-3). */
import { removeLogo } from '../../core/site/logo';
import { adminActorOf } from '../../http/admin-caller';
import { noContent } from '../../http/admin-endpoint';
import { adminHandler } from '../../wiring/admin-handler';
import { getSite } from '../../wiring/site';
import { getLogo } from '../../wiring/site-assets';

export const handler = adminHandler(async (_event, _container, caller) => {
  await removeLogo(getLogo(), adminActorOf(caller));
  getSite().forget();
  return noContent();
});

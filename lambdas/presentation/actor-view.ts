/** Who made a change or created a key, as the admin API shows it (behaviour LOG-9): the same shape in every answer. */
import type { ApiKeyCreator } from '../core/model';

export const actorView = (actor: ApiKeyCreator) =>
  actor.kind === 'admin-client' ? { type: actor.kind, client_id: actor.clientId } : { type: actor.kind, user_id: actor.userId };

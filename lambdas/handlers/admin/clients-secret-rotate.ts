/**
 * POST /api/admin/clients/{client_id}/secret: `{ overlap_seconds? }` (or no body) → 200
 * `{ client_id, client_secret, previous_secret_expires_at }`: the new secret, shown this once, and
 * when the one it replaced stops working (null: at once). Behaviour ADMIN-20; mailed to the admins (ADMIN-24).
 */
import * as z from 'zod/mini';
import { maxSecretOverlapSeconds, rotateClientSecret } from '../../core/admin/client-secret';
import { jsonInput, pathParameter } from '../../http/admin-endpoint';
import { adminActorOf } from '../../http/admin-caller';
import { jsonResponse } from '../../http/response';
import { adminHandler } from '../../wiring/admin-handler';
import { getSecretRotation } from '../../wiring/admin';

/** The request body; exported for the OpenAPI document (bin/openapi.ts). */
export const schema = z.strictObject({
  overlap_seconds: z.optional(
    z.number().check(z.int('must be a whole number of seconds'), z.minimum(0), z.maximum(maxSecretOverlapSeconds)),
  ),
});

export const handler = adminHandler(async (event, _container, caller) => {
  const clientId = pathParameter(event, 'client_id');
  // No body at all is the default overlap, so a plain POST rotates.
  const body = event.body ? jsonInput(event, schema) : {};
  const rotated = await rotateClientSecret(getSecretRotation(), adminActorOf(caller), {
    clientId,
    ...(body.overlap_seconds !== undefined ? { overlapSeconds: body.overlap_seconds } : {}),
  });
  return jsonResponse(200, {
    client_id: rotated.client.clientId,
    client_secret: rotated.secret,
    previous_secret_expires_at: rotated.previousSecretExpiresAt ?? null,
  });
});

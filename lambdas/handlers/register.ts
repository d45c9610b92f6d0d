/**
 * POST /api/register: RFC 7591 dynamic client registration (behaviour REG-2). The order matters:
 * enablement (behaviour REG-1), then the per-IP daily cap, which counts every attempt including
 * malformed and rejected ones (behaviour REG-6), then validation, then the write.
 */
import { AccessDeniedError, InvalidClientMetadataError, OAuthError, TooManyRequestsError } from '../core/errors';
import { newId } from '../core/ids';
import { metricNames } from '../core/metrics';
import { dynamicClient, registrationResponse, validateRegistration } from '../core/registration';
import { parseBody } from '../http/body';
import { httpHandler } from '../wiring/handler';
import { labelClient } from '../http/request-context';
import { jsonResponse } from '../http/response';
import { getRegistrationCounter } from '../wiring/registration';
import { getClientRepository } from '../wiring/repositories';
import { getStorage } from '../wiring/storage';

export const handler = httpHandler(
  async (event, container) => {
    const { config, clock, random } = container;
    if (!config.dcr.enabled || !config.dcr.environmentId) {
      throw new AccessDeniedError('Dynamic client registration is not enabled on this server.');
    }
    const { scopes } = getStorage();
    const ip = event.requestContext.identity.sourceIp;
    const { allowed, retryAfterSeconds } = await getRegistrationCounter().hit(ip, clock.now(), config.dcr.rateLimitPerDay);
    if (!allowed) {
      container.metrics.count(metricNames.registrationCapHit);
      throw new TooManyRequestsError(
        'Too many registrations from this address today; try again tomorrow.',
        retryAfterSeconds,
        `ip ${ip} over cap`,
      );
    }

    let body: unknown;
    try {
      body = parseBody(event, ['json']);
    } catch (error) {
      // RFC 7591 3.2.2: whatever is wrong with the metadata document is invalid_client_metadata.
      throw new InvalidClientMetadataError(error instanceof OAuthError ? error.description : 'The request body is not valid JSON.');
    }
    const registration = validateRegistration(body, await scopes(), config.localMode);
    const client = dynamicClient(registration, {
      clientId: `${config.clientIdPrefix}${newId('', random)}`,
      environmentId: config.dcr.environmentId,
      createdAt: new Date(clock.now()).toISOString(),
    });
    const expiryDays = config.dcr.unusedClientExpiryDays;
    const expiresAtEpoch = expiryDays > 0 ? Math.floor(clock.now() / 1000) + expiryDays * 86_400 : undefined;
    await getClientRepository().create(client, expiresAtEpoch);
    labelClient(client.clientId);
    container.metrics.count(metricNames.clientRegistered);
    return jsonResponse(201, registrationResponse(client, registration));
  },
  { crossOrigin: true }, // route row flag crossOrigin (behaviour HTTP-6)
);

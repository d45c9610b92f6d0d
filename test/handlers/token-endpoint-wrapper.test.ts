/**
 * The token-endpoint wrapper (lambdas/wiring/token-endpoint.ts) every token-issuing door goes
 * through: one activity row per failed attempt with the answered code and the real reason, and the
 * issued/refused metrics, the same way whatever the door issues (behaviour TOKEN-5, LOG-1, LOG-2).
 */
import { InvalidGrantError } from '../../lambdas/core/errors';
import { metricNames } from '../../lambdas/core/metrics';
import { getContainer } from '../../lambdas/wiring/container';
import { getTokenStore } from '../../lambdas/wiring/repositories';
import { tokenEndpoint, type TokenDoor } from '../../lambdas/wiring/token-endpoint';
import { lambdaContext } from '../support/events';
import { unique } from '../support/fixtures';
import { activityOf, formEvent } from '../support/token-calls';

const response = { access_token: 'at', token_type: 'Bearer' as const, expires_in: 60, scope: '' };
const metrics = { issued: metricNames.tokenIssued, refused: metricNames.tokenRefused, byGrant: true };
const call = (door: TokenDoor) => tokenEndpoint(door)(formEvent('/api/token', {}, { sourceIp: '203.0.113.9' }), lambdaContext);

afterEach(() => jest.restoreAllMocks());

test('a door that issues answers 200 with its response and counts one issue, labelled by the grant it named', async () => {
  const count = jest.spyOn(getContainer().metrics, 'count');
  const result = await call({
    metrics,
    issue: async (_, activity) => {
      activity.ofType('client_credentials');
      return response;
    },
  });
  expect(result.statusCode).toBe(200);
  expect(JSON.parse(result.body)).toEqual(response);
  expect(count.mock.calls).toEqual([[metricNames.tokenIssued, { grant: 'client_credentials' }]]);
});

test('a refused attempt writes one failure row with the answered code and the reason, and counts one refusal (behaviour LOG-2)', async () => {
  const clientId = unique('wrapper-');
  const count = jest.spyOn(getContainer().metrics, 'count');
  const result = await call({
    metrics,
    issue: async (_, activity) => {
      activity.ofType('refresh_token');
      activity.forClientId(clientId);
      throw new InvalidGrantError('The refresh token is invalid.', 'unknown refresh token');
    },
  });
  expect(result.statusCode).toBe(400);
  expect(count.mock.calls).toEqual([[metricNames.tokenRefused, { grant: 'refresh_token', error: 'invalid_grant' }]]);
  const rows = await activityOf(clientId);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({
    requestType: 'refresh_token',
    clientId,
    ip: '203.0.113.9',
    success: false,
    reason: 'invalid_grant: unknown refresh token',
  });
});

test('a door of one kind names its request type up front; counts carry no grant label when the door says so', async () => {
  const clientId = unique('wrapper-');
  const count = jest.spyOn(getContainer().metrics, 'count');
  await call({
    requestType: 'api key',
    metrics: { issued: metricNames.apiKeyExchanged, refused: metricNames.apiKeyExchangeRefused, byGrant: false },
    issue: async (_, activity) => {
      activity.forClientId(clientId);
      throw new Error('boom');
    },
  });
  expect(count.mock.calls).toEqual([[metricNames.apiKeyExchangeRefused, { error: 'server_error' }]]);
  expect((await activityOf(clientId))[0]).toMatchObject({ requestType: 'api key', success: false, reason: 'server_error: Error' });
});

test('a failure row that cannot be written does not hide the request’s own failure', async () => {
  jest.spyOn(getTokenStore(), 'recordActivity').mockRejectedValue(new Error('table gone'));
  const logged = jest.spyOn(getContainer().log, 'error');
  const result = await call({
    metrics,
    issue: async () => {
      throw new InvalidGrantError('The code is invalid.', 'unknown code');
    },
  });
  expect(result.statusCode).toBe(400);
  expect(JSON.parse(result.body)).toMatchObject({ error: 'invalid_grant' });
  expect(logged).toHaveBeenCalledWith('activity row not written', expect.anything());
});

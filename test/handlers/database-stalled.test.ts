/**
 * A DynamoDB that accepts connections and never answers (README "When the database has trouble"):
 * every AWS call carries the invocation's deadline (lambdas/adapters/aws/invocation-deadline.ts), so
 * the function answers 503 `temporarily_unavailable` with Retry-After before Lambda would stop it
 * at its timeout with no answer at all. The wiring is pointed at a loopback stand-in for this file.
 */
import type { Context } from 'aws-lambda';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handler as tokenHandler } from '../../lambdas/handlers/token';
import { resetContainer } from '../../lambdas/wiring/container';
import { apiGatewayEvent, headerOf, jsonBody, lambdaContext } from '../support/events';

let server: Server;
let received = 0;
const savedEndpoint = process.env.DYNAMODB_ENDPOINT;

beforeAll(async () => {
  server = createServer((request) => {
    received += 1;
    request.resume(); // read it, never answer
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.env.DYNAMODB_ENDPOINT = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  resetContainer();
});
afterAll(async () => {
  process.env.DYNAMODB_ENDPOINT = savedEndpoint;
  resetContainer();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

it('503 temporarily_unavailable with Retry-After, answered before the invocation runs out of time (RFC 6749 5.2 shape)', async () => {
  const remainingMs = 2500;
  const endsAt = performance.now() + remainingMs;
  const context = { ...lambdaContext, getRemainingTimeInMillis: () => endsAt - performance.now() } as Context;
  const event = apiGatewayEvent({
    method: 'POST',
    path: '/api/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials&client_id=tgc_stalled&client_secret=whatever',
  });

  const result = await tokenHandler(event, context);

  expect(performance.now()).toBeLessThan(endsAt);
  expect(result.statusCode).toBe(503);
  expect(jsonBody(result)).toEqual({ error: 'temporarily_unavailable', error_description: expect.any(String) });
  expect(headerOf(result, 'Retry-After')).toBe('1');
  expect(received).toBeGreaterThanOrEqual(1);
});

/**
 * With tracing on (the construct's `tracing` prop sets POWERTOOLS_TRACE_ENABLED=true), every AWS
 * call is an X-Ray subsegment of the invocation's trace (Powertools Tracer's SDK v3 capture,
 * lambdas/adapters/aws/tracing.ts). As in Lambda, subsegments go by UDP to the X-Ray daemon's
 * address; here a UDP socket of the test stands in for the daemon and reads what arrives.
 */
import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { handler as tokenHandler } from '../../lambdas/handlers/token';
import { resetContainer } from '../../lambdas/wiring/container';
import { apiGatewayEvent, lambdaContext } from '../support/events';

const traceId = '1-6745a1b2-0123456789abcdef01234567';
let daemon: Socket;
const documents: Record<string, unknown>[] = [];
const saved = { ...process.env };

beforeAll(async () => {
  daemon = createSocket('udp4');
  daemon.on('message', (message) => {
    // Each datagram: a header line, then one segment document.
    const [, body] = message.toString('utf8').split('\n');
    if (body) documents.push(JSON.parse(body) as Record<string, unknown>);
  });
  await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
  Object.assign(process.env, {
    POWERTOOLS_TRACE_ENABLED: 'true',
    // What Lambda sets in a traced function's environment.
    AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
    LAMBDA_TASK_ROOT: '/var/task',
    _X_AMZN_TRACE_ID: `Root=${traceId};Parent=53995c3f42cd8ad8;Sampled=1`,
    AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${(daemon.address() as AddressInfo).port}`,
    AWS_XRAY_CONTEXT_MISSING: 'IGNORE_ERROR',
  });
  resetContainer();
});
afterAll(async () => {
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
  resetContainer();
  await new Promise<void>((resolve) => daemon.close(() => resolve()));
});

it('a token request records its DynamoDB call as an X-Ray subsegment of the invocation trace', async () => {
  const event = apiGatewayEvent({
    method: 'POST',
    path: '/api/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials&client_id=tgc_traced&client_secret=unknown',
  });
  const result = await tokenHandler(event, lambdaContext);
  expect(result.statusCode).toBe(401);

  const deadline = Date.now() + 3000;
  const isDynamoCall = (d: Record<string, unknown>) => d.name === 'DynamoDB' && d.namespace === 'aws';
  while (!documents.some(isDynamoCall) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  const subsegment = documents.find(isDynamoCall);
  expect(subsegment).toMatchObject({
    type: 'subsegment',
    trace_id: traceId,
    parent_id: '53995c3f42cd8ad8',
    aws: { operation: 'GetItem' },
  });
});

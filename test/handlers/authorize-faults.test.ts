/**
 * The single-use authorization request (OAuth 2.1 4.1.1, behaviour AUTHZ-11) when DynamoDB loses the
 * reply to its consumption: the SDK resends the conditional write, which must be
 * recognised as this request's own, not as a second use ("expired or already used").
 */
import type { Client } from '../../lambdas/core/model';
import { handler as completeHandler } from '../../lambdas/handlers/authorize-complete';
import { handler as signInStepHandler } from '../../lambdas/handlers/authorize-sign-in';
import { handler as authorizeHandler } from '../../lambdas/handlers/authorize';
import { authorizeQuery, browserHeaders, cookieOf, form, hiddenField, locationOf } from '../support/authorization';
import { createClient, createUserWithPassword, type TestUser, unique } from '../support/fixtures';
import { DynamoFaults, touches } from '../support/dynamo-faults';
import { apiGatewayEvent, lambdaContext } from '../support/events';

let staticClient: Client;
let dynamicClient: Client;
let alice: TestUser;
let faults: DynamoFaults;

beforeAll(async () => {
  const environmentId = unique('env_');
  staticClient = await createClient({ kind: 'app', environmentId });
  dynamicClient = await createClient({
    kind: 'app',
    registrationType: 'dynamic',
    redirectUris: ['http://127.0.0.1:8765/callback'],
    scopes: ['openid', 'profile'],
  });
  alice = await createUserWithPassword({ environments: [environmentId, process.env.DCR_ENVIRONMENT_ID!] });
});
beforeEach(() => (faults = DynamoFaults.install()));
afterEach(() => faults.uninstall());

const requestIdOf = async (client: Client) =>
  hiddenField(
    (
      await authorizeHandler(
        apiGatewayEvent({ path: '/api/authorize', query: authorizeQuery(client), headers: { Accept: 'text/html' } }),
        lambdaContext,
      )
    ).body,
    'request_id',
  );
const signInStep = (requestId: string) =>
  signInStepHandler(
    apiGatewayEvent({
      method: 'POST',
      path: '/api/authorize',
      headers: browserHeaders(),
      body: form({ request_id: requestId, email: alice.user.email!, password: alice.password }),
    }),
    lambdaContext,
  );
const complete = (requestId: string, cookie: string) =>
  completeHandler(
    apiGatewayEvent({
      method: 'POST',
      path: '/api/authorize/complete',
      headers: browserHeaders({ Cookie: cookie }),
      body: form({ request_id: requestId, decision: 'approve' }),
    }),
    lambdaContext,
  );
/** The consumption of the stored request loses its reply once; the SDK resends it. */
const loseOneConsumptionReply = () =>
  faults.fail({ operation: 'UpdateItem', phase: 'after', times: 1, where: (a) => touches(a, 'AUTHREQ#') }).fail({
    operation: 'DeleteItem',
    phase: 'after',
    times: 1,
    where: (a) => touches(a, 'AUTHREQ#'),
  });

describe('the single-use request consumed with its reply lost (behaviour AUTHZ-11)', () => {
  it('sign-in step of a static client: 303 with a code, not "expired or already used"; a replay still issues nothing', async () => {
    const requestId = await requestIdOf(staticClient);
    loseOneConsumptionReply();
    const result = await signInStep(requestId);
    expect(faults.injected).toHaveLength(1);
    faults.clear();
    expect(result.statusCode).toBe(303);
    expect(locationOf(result).searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Still single use.
    expect((await signInStep(requestId)).statusCode).toBe(400);
  });

  it('consent of a dynamic client: 303 with a code; a second approval still gets none', async () => {
    const requestId = await requestIdOf(dynamicClient);
    const consent = await signInStep(requestId);
    expect(consent.statusCode).toBe(200);
    const cookie = cookieOf(consent);
    loseOneConsumptionReply();
    const result = await complete(requestId, cookie);
    expect(faults.injected).toHaveLength(1);
    faults.clear();
    expect(result.statusCode).toBe(303);
    expect(locationOf(result).searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await complete(requestId, cookie)).statusCode).toBe(400);
  });
});

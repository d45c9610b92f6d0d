/**
 * One route, or one flood, cannot take what the others need. Lambda reserved
 * concurrency per route family (behaviour LIMIT-5) and API Gateway throttling per stage and per
 * mail-sending method (behaviour LIMIT-6), read from the synthesized template.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../../lambdas/config/settings';
import { routes } from '../../lambdas/routes';
import {
  concurrencyPlan,
  defaultApiThrottle,
  defaultMailThrottleCallers,
  defaultReservedConcurrency,
  maxMethodThrottles,
  minimumUnreservedConcurrency,
} from '../../lib/isolation';
import { routeFamily } from '../../lib/route-families';
import { logicalId, resources, synthesize, type Synthesized } from './synthesize';

let synthesized: Synthesized;
beforeAll(() => {
  synthesized = synthesize();
});

const reservationOf = (s: Synthesized, fn: Parameters<typeof logicalId>[0]) =>
  resources(s.template, 'AWS::Lambda::Function')[logicalId(fn)]!.Properties.ReservedConcurrentExecutions;
const stageOf = (s: Synthesized) => Object.values(resources(s.template, 'AWS::ApiGateway::Stage'))[0]!.Properties;

describe('behaviour LIMIT-5: reserved concurrency per route family', () => {
  test('every route function reserves its family’s default (token 30, browser 5, public 5, admin 2) and the fallback 5', () => {
    const server = synthesized.stack.server;
    for (const route of routes) {
      expect({ route: route.name, reserved: reservationOf(synthesized, server.functions[route.name]!) }).toEqual({
        route: route.name,
        reserved: defaultReservedConcurrency[routeFamily(route).key],
      });
    }
    expect(reservationOf(synthesized, server.fallbackFunction)).toBe(defaultReservedConcurrency.fallback);
  });

  test('the token family is never starved: each of its functions has a reservation of its own, above every other family’s', () => {
    const tokenRows = routes.filter((route) => routeFamily(route).key === 'token');
    expect(tokenRows.map((route) => route.path)).toEqual(
      expect.arrayContaining(['/api/token', '/api/token/api-key', '/api/token/introspect', '/api/token/revoke']),
    );
    const others = routes.filter((route) => routeFamily(route).key !== 'token');
    const highestOther = Math.max(...others.map((route) => reservationOf(synthesized, synthesized.stack.server.functions[route.name]!)));
    for (const route of tokenRows) {
      expect(reservationOf(synthesized, synthesized.stack.server.functions[route.name]!)).toBeGreaterThan(highestOther);
    }
  });

  test('the defaults leave the account’s default limit of 1,000 at least Lambda’s 100 unreserved, and docs/deployment.md states the sum', () => {
    const plan = synthesized.stack.server.concurrency;
    const sum = Object.values(resources(synthesized.template, 'AWS::Lambda::Function')).reduce(
      (total, fn) => total + (fn.Properties.ReservedConcurrentExecutions ?? 0),
      0,
    );
    expect(plan.total).toBe(sum);
    expect(plan.accountLimit).toBe(1000);
    expect(plan.unreserved).toBe(1000 - sum);
    expect(plan.unreserved).toBeGreaterThanOrEqual(minimumUnreservedConcurrency);
    const guide = readFileSync(join(__dirname, '..', '..', 'docs', 'deployment.md'), 'utf8');
    expect(guide).toContain(`reserves **${sum}**`);
    expect(guide).toContain(`**${1000 - sum}** unreserved`);
  });

  test('RESERVED_CONCURRENCY=off (small accounts) reserves nothing', () => {
    const off = synthesize({ RESERVED_CONCURRENCY: 'off' });
    for (const fn of Object.values(resources(off.template, 'AWS::Lambda::Function'))) {
      expect(fn.Properties.ReservedConcurrentExecutions).toBeUndefined();
    }
    expect(off.stack.server.concurrency.total).toBe(0);
  });

  test('a family given in RESERVED_CONCURRENCY replaces its default; the others keep theirs', () => {
    const plan = concurrencyPlan(routes, { token: 40, admin: 1 });
    for (const route of routes) {
      const key = routeFamily(route).key;
      expect(plan.routes[route.name]).toBe(key === 'token' ? 40 : key === 'admin' ? 1 : defaultReservedConcurrency[key]);
    }
  });

  test('synth refuses reservations that would leave fewer than 100 unreserved, with the arithmetic', () => {
    const total = concurrencyPlan(routes, undefined).total;
    expect(() => synthesize({ ACCOUNT_CONCURRENCY_LIMIT: String(total + 99) })).toThrow(
      new RegExp(`reserves ${total} concurrent executions, which would leave 99 of the account's ${total + 99} unreserved`),
    );
    expect(() => synthesize({ ACCOUNT_CONCURRENCY_LIMIT: String(total + 100), RESERVED_CONCURRENCY: 'token=30' })).not.toThrow();
  });

  test('bad settings are refused at synth, each named', () => {
    for (const value of ['token=0', 'tokens=3', 'token=3,token=4', 'token', '5']) {
      expect(() => synthesize({ RESERVED_CONCURRENCY: value })).toThrow(ConfigError);
      expect(() => synthesize({ RESERVED_CONCURRENCY: value })).toThrow(/RESERVED_CONCURRENCY must be "off", or family=count pairs/);
    }
    expect(() => synthesize({ ACCOUNT_CONCURRENCY_LIMIT: 'many' })).toThrow(/ACCOUNT_CONCURRENCY_LIMIT must be a whole number/);
  });
});

describe('behaviour LIMIT-6: API Gateway throttling, all callers together', () => {
  const settings = () => stageOf(synthesized).MethodSettings as any[];

  test('every method of the stage is throttled (500 a second, bursts of 1,000), with ERROR logging and no data trace', () => {
    expect(settings().find((s) => s.ResourcePath === '/*' && s.HttpMethod === '*')).toMatchObject({
      ThrottlingRateLimit: defaultApiThrottle.rateLimit,
      ThrottlingBurstLimit: defaultApiThrottle.burstLimit,
      LoggingLevel: 'ERROR',
      DataTraceEnabled: false,
    });
  });

  test('each mail-sending row with an edge rule of its own (or of a named group) is throttled at its edge rate times 100 addresses, bursts of at least its edge limit', () => {
    const mailRows = routes.filter((route) => route.sendsMail && route.edge && !route.edge.shared?.pathPrefixes);
    expect(mailRows.map((route) => route.path)).toEqual(
      expect.arrayContaining([
        '/forgot-password',
        '/reset-password',
        '/api/users/email-verification/request',
        '/api/auth/otp/resend',
        '/api/authorize',
      ]),
    );
    const perMethod = settings().filter((s) => s.ResourcePath !== '/*');
    expect(perMethod).toHaveLength(mailRows.length);
    expect(perMethod.length).toBeLessThanOrEqual(maxMethodThrottles);
    for (const route of mailRows) {
      const setting = perMethod.find(
        (s) => s.ResourcePath === route.path.replaceAll('/', '~1').replace(/^/, '/') && s.HttpMethod === route.method,
      );
      const edgeRate = route.edge!.limit / route.edge!.windowSeconds;
      expect(setting).toMatchObject({ LoggingLevel: 'ERROR', DataTraceEnabled: false });
      expect(setting.ThrottlingRateLimit).toBeCloseTo(edgeRate * defaultMailThrottleCallers, 2);
      expect(setting.ThrottlingRateLimit).toBeLessThanOrEqual(defaultApiThrottle.rateLimit);
      expect(setting.ThrottlingBurstLimit).toBeGreaterThanOrEqual(route.edge!.limit);
    }
    // One address at its edge limit is never throttled by API Gateway first.
    const forgot = perMethod.find((s) => s.ResourcePath === '/~1forgot-password' && s.HttpMethod === 'POST');
    expect(forgot).toMatchObject({ ThrottlingRateLimit: 1.67, ThrottlingBurstLimit: 10 });
  });

  test('a throttled request gets 429 too_many_requests in the service’s error shape', () => {
    const responses = Object.values(resources(synthesized.template, 'AWS::ApiGateway::GatewayResponse'));
    const throttled = responses.find((r) => r.Properties.ResponseType === 'THROTTLED')!;
    expect(throttled.Properties.StatusCode).toBe('429');
    expect(JSON.parse(throttled.Properties.ResponseTemplates['application/json']).error).toBe('too_many_requests');
  });
});

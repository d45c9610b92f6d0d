/**
 * What an operator gets in CloudWatch (behaviour LOG-7): a dashboard of the API's traffic,
 * latency and errors beside the service's own metrics, alarms on refusal spikes and the
 * registration cap (thresholds as props, actions to the alarm topic), the functions told where
 * their metrics go, and X-Ray tracing only when asked for.
 */
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { metricNames } from '../../lambdas/core/metrics';
import { AuthorizationServerStack } from '../../lib/authorization-server-stack';
import { stackPropsFromContext } from '../../lib/deployment-options';
import { assemblyDir, flattenNestedStacks, logicalId, resources, roleStatements, synthesize, type Synthesized } from './synthesize';

let plain: Synthesized;
/** Built as another CDK app would: tracing on, its own namespace and thresholds. */
let traced: { stack: AuthorizationServerStack; template: Template };

beforeAll(() => {
  plain = synthesize({ ALARM_TOPIC_ARN: 'arn:aws:sns:eu-west-1:123456789012:ops-alarms' });
  const app = new App({
    outdir: assemblyDir(),
    context: {
      'aws:cdk:bundling-stacks': [],
      MAIL_FROM: 'no-reply@example.org',
      ADMIN_OPEN_TO_INTERNET: 'true',
      ALARM_EMAIL: 'ops@example.org',
    },
  });
  const stack = new AuthorizationServerStack(app, 'Traced', {
    ...stackPropsFromContext(app),
    tracing: true,
    metricsNamespace: 'Acme/Auth',
    alarmThresholds: { tokensRefusedPer5Minutes: 7, registrationCapHitsPerHour: 3 },
  });
  traced = { stack, template: Template.fromJSON(flattenNestedStacks(stack)) };
});

const alarmOn = (template: Template, metricName: string) => {
  const found = Object.values(resources(template, 'AWS::CloudWatch::Alarm')).filter((a) => a.Properties.MetricName === metricName);
  expect(found).toHaveLength(1);
  return found[0]!.Properties;
};

/** Every function serving requests or jobs, as the alarms count them. */
const servingFunctions = (server: AuthorizationServerStack['server']) => [
  ...Object.values(server.functions),
  server.fallbackFunction,
  ...Object.values(server.jobFunctions),
];

describe('the functions publish where the dashboard and alarms look', () => {
  test('every serving function names the namespace and its deployment’s service dimension', () => {
    const functions = resources(plain.template, 'AWS::Lambda::Function');
    const { namespace, service } = plain.stack.server.serviceMetrics;
    expect(namespace).toBe('Tollgate');
    expect(service).toMatch(/^[A-Za-z0-9]+$/);
    for (const fn of servingFunctions(plain.stack.server)) {
      expect(functions[logicalId(fn)]!.Properties.Environment.Variables).toMatchObject({
        POWERTOOLS_METRICS_NAMESPACE: namespace,
        POWERTOOLS_SERVICE_NAME: service,
      });
    }
    expect(traced.stack.server.serviceMetrics.namespace).toBe('Acme/Auth');
    expect(traced.stack.server.serviceMetrics.service).not.toBe(service);
  });
});

describe('alarms on the service’s own metrics', () => {
  test('refused tokens, API-key exchanges, sign-ins and codes per 5 minutes, registration-cap hits and password ceilings reached (behaviour PWFAIL-8) per hour; default thresholds', () => {
    const { namespace, service } = plain.stack.server.serviceMetrics;
    const expected = [
      [metricNames.tokenRefused, 100, 300],
      [metricNames.apiKeyExchangeRefused, 50, 300],
      [metricNames.signInFailed, 50, 300],
      [metricNames.signInCodeFailed, 25, 300],
      [metricNames.registrationCapHit, 20, 3600],
      [metricNames.passwordCeilingReached, 5, 3600],
    ] as const;
    for (const [metricName, threshold, period] of expected) {
      expect(alarmOn(plain.template, metricName)).toMatchObject({
        Namespace: namespace,
        Dimensions: [{ Name: 'service', Value: service }],
        Statistic: 'Sum',
        Period: period,
        Threshold: threshold,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'notBreaching',
        AlarmActions: ['arn:aws:sns:eu-west-1:123456789012:ops-alarms'],
        OKActions: ['arn:aws:sns:eu-west-1:123456789012:ops-alarms'],
      });
    }
  });

  test('the alarmThresholds prop sets them; the others keep their defaults', () => {
    expect(alarmOn(traced.template, metricNames.tokenRefused)).toMatchObject({ Namespace: 'Acme/Auth', Threshold: 7 });
    expect(alarmOn(traced.template, metricNames.registrationCapHit)).toMatchObject({ Threshold: 3 });
    expect(alarmOn(traced.template, metricNames.signInFailed)).toMatchObject({ Threshold: 50 });
    // Behaviour OPS-1: without ALARM_TOPIC_ARN, the stack's own topic.
    expect(alarmOn(traced.template, metricNames.tokenRefused).AlarmActions).toEqual([{ Ref: logicalId(traced.stack.server.alarms.topic) }]);
  });
});

describe('the operations dashboard', () => {
  /** The dashboard body as CloudWatch gets it, references (region, alarm ARNs) shown as `<ref>`. */
  const widgets = (template: Template): any[] => {
    const dashboards = Object.values(resources(template, 'AWS::CloudWatch::Dashboard'));
    expect(dashboards).toHaveLength(1);
    const parts: unknown[] = dashboards[0]!.Properties.DashboardBody['Fn::Join'][1];
    return JSON.parse(parts.map((part) => (typeof part === 'string' ? part : '<ref>')).join('')).widgets;
  };

  test('charts every service metric, API requests, latency percentiles and 4xx/5xx, and shows every alarm', () => {
    const all = widgets(plain.template);
    const { service } = plain.stack.server.serviceMetrics;
    const metricsOf = (title: string) => all.find((w) => w.properties.title === title)?.properties.metrics as unknown[][];
    expect(metricsOf('API requests')).toEqual([
      ['AWS/ApiGateway', 'Count', 'ApiName', plain.stack.server.api.restApiName, expect.objectContaining({ stat: 'Sum' })],
    ]);
    expect(metricsOf('API latency (ms)').map((m) => (m.at(-1) as any).stat)).toEqual(['p50', 'p90', 'p99']);
    expect(metricsOf('API errors').map((m) => m[1])).toEqual(['4XXError', '5XXError']);
    const charted = JSON.stringify(all);
    for (const name of Object.values(metricNames)) expect(charted).toContain(name);
    // Breakdowns by dimension are SEARCH expressions scoped to this deployment, one line per value.
    expect(metricsOf('Token requests refused, by grant and error')).toEqual([
      [
        {
          expression: `SEARCH('{"Tollgate",service,grant,error} MetricName="TokenRefused" service="${service}"', 'Sum', 300)`,
          // biome-ignore lint/suspicious/noTemplateCurlyInString: CloudWatch's dynamic-label syntax, not a template
          label: "${PROP('Dim.grant')} ${PROP('Dim.error')}",
        },
      ],
    ]);
    const alarmWidget = all.find((w) => w.type === 'alarm');
    expect(alarmWidget.properties.alarms).toHaveLength(Object.keys(resources(plain.template, 'AWS::CloudWatch::Alarm')).length);
  });
});

describe('X-Ray tracing (the tracing prop, TRACING in context)', () => {
  test('off by default: no function traced nor told to trace its AWS calls, the stage not traced', () => {
    for (const fn of Object.values(resources(plain.template, 'AWS::Lambda::Function'))) {
      expect(fn.Properties.TracingConfig).toBeUndefined();
      expect(fn.Properties.Environment?.Variables?.POWERTOOLS_TRACE_ENABLED).toBeUndefined();
    }
    const stages = Object.values(resources(plain.template, 'AWS::ApiGateway::Stage'));
    expect(stages.map((s) => s.Properties.TracingEnabled ?? false)).toEqual([false]);
  });

  test('on: every serving function traced actively, its AWS calls as subsegments, with permission to send segments, and the API stage traced', () => {
    const functions = resources(traced.template, 'AWS::Lambda::Function');
    for (const fn of servingFunctions(traced.stack.server)) {
      expect(functions[logicalId(fn)]!.Properties.TracingConfig).toEqual({ Mode: 'Active' });
      // lambdas/wiring/aws.ts reads it: the SDK clients are captured by Powertools Tracer.
      expect(functions[logicalId(fn)]!.Properties.Environment.Variables.POWERTOOLS_TRACE_ENABLED).toBe('true');
      const actions = roleStatements(traced.template, logicalId(fn)).flatMap((s) => [s.Action].flat());
      expect(actions).toEqual(expect.arrayContaining(['xray:PutTraceSegments', 'xray:PutTelemetryRecords']));
    }
    const stages = Object.values(resources(traced.template, 'AWS::ApiGateway::Stage'));
    expect(stages.map((s) => s.Properties.TracingEnabled)).toEqual([true]);
  });

  test('TRACING=true in context turns it on', () => {
    const context = { MAIL_FROM: 'no-reply@example.org', ADMIN_OPEN_TO_INTERNET: 'true', ALARM_EMAIL: 'ops@example.org' };
    expect(stackPropsFromContext(new App({ context: { ...context, TRACING: 'true' } })).tracing).toBe(true);
    expect(stackPropsFromContext(new App({ context })).tracing).toBe(false);
  });
});

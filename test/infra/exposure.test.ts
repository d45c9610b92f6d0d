/**
 * What the deployment exposes and how: TLS 1.2 at least wherever a client connects
 * (behaviour EXPOSURE-1, EXPOSURE-2), and the admin plane open to the internet only when the
 * deployer says so (behaviour EXPOSURE-3).
 */
import { App, Stack } from 'aws-cdk-lib';
import { ConfigError } from '../../lambdas/config/settings';
import { AuthorizationServer } from '../../lib/authorization-server';
import { stackPropsFromContext } from '../../lib/deployment-options';
import { assemblyDir, logicalId, resources, synthesize, type Synthesized } from './synthesize';

const domains = {
  DOMAIN_NAME: 'auth.example.net',
  CERTIFICATE_ARN: 'arn:aws:acm:eu-west-1:123456789012:certificate/0a1b2c3d-1111-2222-3333-444455556666',
  JWKS_DOMAIN_NAME: 'keys.example.net',
  JWKS_CERTIFICATE_ARN: 'arn:aws:acm:us-east-1:123456789012:certificate/9f8e7d6c-1111-2222-3333-444455556666',
};
/** ADMIN_OPEN_TO_INTERNET=true and nothing else; then both custom domains. */
let open: Synthesized;
let withDomains: Synthesized;
beforeAll(() => {
  open = synthesize({ ADMIN_OPEN_TO_INTERNET: 'true' });
  withDomains = synthesize(domains);
});
const only = (s: Synthesized, type: string) => {
  const found = Object.values(resources(s.template, type));
  expect(found).toHaveLength(1);
  return found[0]!.Properties;
};
const healthVariables = (s: Synthesized) =>
  resources(s.template, 'AWS::Lambda::Function')[logicalId(s.stack.server.functions.Health!)]!.Properties.Environment.Variables;

describe('behaviour EXPOSURE-1: the API accepts TLS 1.2 or newer only', () => {
  test('the REST API itself has the TLS 1.2 security policy, so its execute-api endpoint refuses TLS 1.0 and 1.1', () => {
    expect(only(open, 'AWS::ApiGateway::RestApi').SecurityPolicy).toBe('TLS_1_2');
    expect(only(withDomains, 'AWS::ApiGateway::RestApi').SecurityPolicy).toBe('TLS_1_2');
  });

  test('with a custom domain: the domain has the TLS 1.2 policy and the execute-api endpoint is disabled', () => {
    expect(only(withDomains, 'AWS::ApiGateway::DomainName')).toMatchObject({ SecurityPolicy: 'TLS_1_2', DomainName: 'auth.example.net' });
    expect(only(withDomains, 'AWS::ApiGateway::RestApi').DisableExecuteApiEndpoint).toBe(true);
    expect(healthVariables(withDomains).BASE_URL).toBe('https://auth.example.net');
  });

  test('without one the execute-api endpoint is the issuer, so it stays on', () => {
    expect(only(open, 'AWS::ApiGateway::RestApi').DisableExecuteApiEndpoint).toBeUndefined();
  });
});

describe('behaviour EXPOSURE-2: the JWKS distribution with an alias accepts TLS 1.2 or newer only', () => {
  test('JWKS_DOMAIN_NAME and JWKS_CERTIFICATE_ARN: the alias, its certificate, SNI and TLSv1.2_2021; jwks_uri on the alias', () => {
    const config = only(withDomains, 'AWS::CloudFront::Distribution').DistributionConfig;
    expect(config.Aliases).toEqual(['keys.example.net']);
    expect(config.ViewerCertificate).toEqual({
      AcmCertificateArn: domains.JWKS_CERTIFICATE_ARN,
      MinimumProtocolVersion: 'TLSv1.2_2021',
      SslSupportMethod: 'sni-only',
    });
    expect(healthVariables(withDomains).JWKS_CDN_BASE_URL).toBe('https://keys.example.net');
    withDomains.template.hasOutput('JwksDomainTarget', {});
  });

  test('without an alias CloudFront’s default certificate serves it (TLSv1 minimum: documented, not hidden)', () => {
    const config = only(open, 'AWS::CloudFront::Distribution').DistributionConfig;
    expect(config.Aliases).toBeUndefined();
    expect(config.ViewerCertificate).toBeUndefined();
    expect(Object.keys(open.template.findOutputs('JwksDomainTarget'))).toEqual([]);
  });

  test('the certificate must be in us-east-1 (CloudFront’s region), and the two are set together', () => {
    const problems = problemsOf(
      fromContext({
        ADMIN_OPEN_TO_INTERNET: 'true',
        JWKS_DOMAIN_NAME: 'keys.example.net',
        JWKS_CERTIFICATE_ARN: domains.CERTIFICATE_ARN,
      }),
    );
    expect(problems).toMatch(/JWKS_CERTIFICATE_ARN must be an ACM certificate ARN in us-east-1/);
    expect(problemsOf(fromContext({ ADMIN_OPEN_TO_INTERNET: 'true', JWKS_DOMAIN_NAME: 'keys.example.net' }))).toMatch(
      /JWKS_DOMAIN_NAME and JWKS_CERTIFICATE_ARN must be set together/,
    );
  });
});

const problemsOf = (build: () => unknown): string => {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems.join('\n');
  }
  throw new Error('expected a ConfigError');
};
const fromContext = (context: Record<string, string>) => () =>
  stackPropsFromContext(
    new App({ outdir: assemblyDir(), context: { MAIL_FROM: 'a@example.org', ALARM_EMAIL: 'ops@example.org', ...context } }),
  );

describe('behaviour EXPOSURE-3: the admin plane is open to any address only when the deployer says so', () => {
  test('no ADMIN_ALLOWED_CIDRS and no ADMIN_OPEN_TO_INTERNET: synth fails, naming both ways out', () => {
    const problems = problemsOf(fromContext({}));
    expect(problems).toMatch(/ADMIN_ALLOWED_CIDRS is empty/);
    expect(problems).toMatch(/ADMIN_OPEN_TO_INTERNET=true/);
    expect(problemsOf(fromContext({ ADMIN_ALLOWED_CIDRS: '', ADMIN_OPEN_TO_INTERNET: 'false' }))).toMatch(/ADMIN_ALLOWED_CIDRS is empty/);
    expect(() => synthesize({ ADMIN_OPEN_TO_INTERNET: '' })).toThrow(/ADMIN_ALLOWED_CIDRS is empty/);
  });

  test('an allowlist and ADMIN_OPEN_TO_INTERNET=true together contradict each other: synth fails', () => {
    expect(problemsOf(fromContext({ ADMIN_ALLOWED_CIDRS: '203.0.113.0/24', ADMIN_OPEN_TO_INTERNET: 'true' }))).toMatch(
      /ADMIN_OPEN_TO_INTERNET=true and ADMIN_ALLOWED_CIDRS/,
    );
  });

  test('either one synthesizes: an allowlist restricts, ADMIN_OPEN_TO_INTERNET=true deploys no allowlist rule', () => {
    expect(fromContext({ ADMIN_ALLOWED_CIDRS: '203.0.113.0/24' })()).toMatchObject({
      adminAllowlist: ['203.0.113.0/24'],
      adminOpenToInternet: false,
    });
    const [webAcl] = Object.values(resources(open.template, 'AWS::WAFv2::WebACL'));
    expect(webAcl!.Properties.Rules.map((rule: { Name: string }) => rule.Name)).not.toContain('AdminAllowlist');
  });

  test('the construct refuses the same, in its props’ words', () => {
    const build = (props: Partial<ConstructorParameters<typeof AuthorizationServer>[2]>) => () =>
      new AuthorizationServer(new Stack(new App({ outdir: assemblyDir(), context: { 'aws:cdk:bundling-stacks': [] } }), 'S'), 'Server', {
        mailFrom: 'a@example.org',
        alarmEmail: 'ops@example.org',
        ...props,
      });
    expect(problemsOf(build({}))).toMatch(/adminAllowlist is empty.*adminOpenToInternet: true/s);
    expect(problemsOf(build({ adminAllowlist: ['203.0.113.0/24'], adminOpenToInternet: true }))).toMatch(
      /adminOpenToInternet: true and adminAllowlist/,
    );
    expect(build({ adminOpenToInternet: true })).not.toThrow();
  });
});

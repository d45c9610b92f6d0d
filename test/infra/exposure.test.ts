/**
 * What the deployment exposes and how (issue 27): the admin plane is open to the internet
 * only when the deployer says so (behaviour EXPOSURE-3).
 */
import { App, Stack } from 'aws-cdk-lib';
import { ConfigError } from '../../lambdas/config/settings';
import { AuthorizationServer } from '../../lib/authorization-server';
import { stackPropsFromContext } from '../../lib/deployment-options';
import { assemblyDir, resources, synthesize } from './synthesize';

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
  stackPropsFromContext(new App({ outdir: assemblyDir(), context: { MAIL_FROM: 'a@example.org', ...context } }));

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
    const open = synthesize({ ADMIN_OPEN_TO_INTERNET: 'true' });
    const [webAcl] = Object.values(resources(open.template, 'AWS::WAFv2::WebACL'));
    expect(webAcl!.Properties.Rules.map((rule: { Name: string }) => rule.Name)).not.toContain('AdminAllowlist');
  });

  test('the construct refuses the same, in its props’ words', () => {
    const build = (props: Partial<ConstructorParameters<typeof AuthorizationServer>[2]>) => () =>
      new AuthorizationServer(new Stack(new App({ outdir: assemblyDir(), context: { 'aws:cdk:bundling-stacks': [] } }), 'S'), 'Server', {
        mailFrom: 'a@example.org',
        ...props,
      });
    expect(problemsOf(build({}))).toMatch(/adminAllowlist is empty.*adminOpenToInternet: true/s);
    expect(problemsOf(build({ adminAllowlist: ['203.0.113.0/24'], adminOpenToInternet: true }))).toMatch(
      /adminOpenToInternet: true and adminAllowlist/,
    );
    expect(build({ adminOpenToInternet: true })).not.toThrow();
  });
});

/** Builds the stack the way bin/app.ts does, from context, for template assertions. */
import { App, CfnResource, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { AuthorizationServerStack } from '../../lib/authorization-server-stack';
import { stackPropsFromContext } from '../../lib/deployment-options';

export interface Synthesized {
  readonly app: App;
  readonly stack: AuthorizationServerStack;
  readonly template: Template;
}

export interface SynthesizeOptions {
  /** Run esbuild (and npm for native modules) for every function. @default false */
  readonly bundle?: boolean;
  /** Cloud assembly folder; the caller removes it. @default - a temp folder CDK picks */
  readonly outdir?: string;
}

/**
 * `bundle: false` (the default) skips esbuild through the `aws:cdk:bundling-stacks`
 * context: the template is the same, only the asset contents are placeholders.
 */
export function synthesize(context: Record<string, unknown> = {}, { bundle = false, outdir }: SynthesizeOptions = {}): Synthesized {
  const app = new App({
    outdir,
    context: { ...(bundle ? {} : { 'aws:cdk:bundling-stacks': [] }), MAIL_FROM: 'no-reply@example.org', ...context },
  });
  const stack = new AuthorizationServerStack(app, 'Test', stackPropsFromContext(app));
  return { app, stack, template: Template.fromStack(stack) };
}

/** Logical id of a construct's CloudFormation resource. */
export function logicalId(stack: Stack, construct: IConstruct): string {
  const resource = construct instanceof CfnResource ? construct : construct.node.defaultChild;
  if (!(resource instanceof CfnResource)) throw new Error(`${construct.node.path} has no CloudFormation resource`);
  return stack.getLogicalId(resource);
}

type Resources = Record<string, { Type: string; Properties?: any; DeletionPolicy?: string; UpdateReplacePolicy?: string }>;

export function resources(template: Template, type: string): Resources {
  return template.findResources(type) as Resources;
}

/** Every IAM statement attached to the role of the given function. */
export function roleStatements(template: Template, functionLogicalId: string): any[] {
  const fn = resources(template, 'AWS::Lambda::Function')[functionLogicalId];
  if (!fn) throw new Error(`no function ${functionLogicalId}`);
  const roleId: string = fn.Properties.Role['Fn::GetAtt'][0];
  return Object.values(resources(template, 'AWS::IAM::Policy'))
    .filter((policy) => policy.Properties.Roles.some((role: any) => role.Ref === roleId))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement);
}

export const actionsOf = (statement: any): string[] => [statement.Action].flat();

/** Full path (`/api/health`) of every API Gateway resource, by logical id; the root is `/`. */
export function resourcePaths(template: Template): Map<string, string> {
  const all = resources(template, 'AWS::ApiGateway::Resource');
  const paths = new Map<string, string>();
  const pathOf = (id: string): string => {
    const known = paths.get(id);
    if (known) return known;
    const resource = all[id]!;
    const parent = resource.Properties.ParentId;
    const parentPath = parent.Ref ? pathOf(parent.Ref) : '';
    const path = `${parentPath}/${resource.Properties.PathPart}`;
    paths.set(id, path);
    return path;
  };
  for (const id of Object.keys(all)) pathOf(id);
  return paths;
}

/** Resource path of a method: `/` when it sits on the root resource. */
export function methodPath(template: Template, method: any): string {
  const resourceId = method.Properties.ResourceId;
  return resourceId.Ref ? resourcePaths(template).get(resourceId.Ref)! : '/';
}

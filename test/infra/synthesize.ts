/** Builds the stack the way bin/app.ts does, from context, for template assertions. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { App, CfnResource, NestedStack, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import type { Route } from '../../lambdas/routes';
import { AuthorizationServerStack } from '../../lib/authorization-server-stack';
import { stackPropsFromContext } from '../../lib/deployment-options';

export interface Synthesized {
  readonly app: App;
  readonly stack: AuthorizationServerStack;
  /**
   * The stack and its nested stacks as one template (see `flattenNestedStacks`), so that
   * assertions follow a reference from a function to a table whichever template holds it.
   */
  readonly template: Template;
  /** Each template as CloudFormation receives it: the stack's, then every nested stack's. */
  readonly templates: readonly { readonly path: string; readonly template: Template }[];
}

export interface SynthesizeOptions {
  /** Run esbuild (and npm for native modules) for every function. @default false */
  readonly bundle?: boolean;
  /** Cloud assembly folder; the caller removes it. @default - a temp folder removed after the test file */
  readonly outdir?: string;
  /** Route rows instead of the route table. @default the route table */
  readonly routes?: readonly Route[];
}

/**
 * `bundle: false` (the default) skips esbuild through the `aws:cdk:bundling-stacks`
 * context: the template is the same, only the asset contents are placeholders.
 */
/** Cloud assembly folders made here, removed once the test file is done. */
const assemblies: string[] = [];
if (typeof afterAll === 'function') {
  afterAll(() => {
    for (const dir of assemblies.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
}

/** A temp folder for a cloud assembly, removed after the test file. */
export function assemblyDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'cdk.out-test-'));
  assemblies.push(dir);
  return dir;
}

/**
 * Behaviour EXPOSURE-3 makes a deployment name its admin allowlist or say the admin plane is open.
 * Tests that give no allowlist mean today's template without one: they say so, as a deployer would.
 */
export const testAdminPlane = (context: Record<string, unknown>): Record<string, unknown> =>
  context.ADMIN_ALLOWED_CIDRS || 'ADMIN_OPEN_TO_INTERNET' in context ? {} : { ADMIN_OPEN_TO_INTERNET: 'true' };

export function synthesize(context: Record<string, unknown> = {}, { bundle = false, outdir, routes }: SynthesizeOptions = {}): Synthesized {
  const app = new App({
    outdir: outdir ?? assemblyDir(),
    // An alarm recipient, as every deploy needs one (behaviour OPS-1); a test of the refusal sets it empty.
    context: {
      ...(bundle ? {} : { 'aws:cdk:bundling-stacks': [] }),
      MAIL_FROM: 'no-reply@example.org',
      ALARM_EMAIL: 'ops@example.org',
      ...testAdminPlane(context),
      ...context,
    },
  });
  const stack = new AuthorizationServerStack(app, 'Test', { ...stackPropsFromContext(app), ...(routes ? { routes } : {}) });
  const nested = nestedStacksOf(stack);
  return {
    app,
    stack,
    template: Template.fromJSON(flattenNestedStacks(stack)),
    templates: [stack, ...nested].map((s) => ({ path: s.node.path, template: Template.fromStack(s) })),
  };
}

/** The nested stacks whose parent is `stack`. */
export function nestedStacksOf(stack: Stack): NestedStack[] {
  return stack.node.findAll().filter((c): c is NestedStack => c instanceof NestedStack && c.nestedStackParent === stack);
}

/**
 * One template holding the resources of a stack and of its nested stacks (one level),
 * with the references between them resolved as CloudFormation would: a nested stack's
 * parameter becomes the value its parent passes, and `Fn::GetAtt [<nested stack>,
 * Outputs.X]` becomes the value of output X. The nested stack resources themselves are
 * left out, so counts are of the resources that do the work.
 */
export function flattenNestedStacks(stack: Stack): any {
  const root = Template.fromStack(stack).toJSON();
  const resources: Record<string, any> = { ...root.Resources };
  const outputsByStack = new Map<string, Record<string, any>>();
  for (const nested of nestedStacksOf(stack)) {
    if (nestedStacksOf(nested).length > 0) throw new Error(`${nested.node.path}: nested stacks two levels deep are not flattened`);
    const stackId = stack.getLogicalId(nested.nestedStackResource as CfnResource);
    const parameters: Record<string, unknown> = resources[stackId].Properties.Parameters ?? {};
    const json = Template.fromStack(nested).toJSON();
    const replaced = replaceDeep(json, (value) =>
      isObject(value) && typeof value.Ref === 'string' && value.Ref in parameters ? { found: parameters[value.Ref] } : undefined,
    );
    for (const [id, resource] of Object.entries<any>(replaced.Resources)) {
      if (id in resources) throw new Error(`logical id ${id} is in both ${stack.node.path} and ${nested.node.path}`);
      resources[id] = resource;
    }
    outputsByStack.set(stackId, replaced.Outputs ?? {});
    delete resources[stackId];
  }
  const flat = replaceDeep({ ...root, Resources: resources }, (value) => {
    const getAtt = isObject(value) ? value['Fn::GetAtt'] : undefined;
    if (!Array.isArray(getAtt) || !outputsByStack.has(getAtt[0]) || !String(getAtt[1]).startsWith('Outputs.')) return undefined;
    return { found: outputsByStack.get(getAtt[0])![String(getAtt[1]).slice('Outputs.'.length)].Value };
  });
  for (const resource of Object.values<any>(flat.Resources)) {
    if (resource.DependsOn) resource.DependsOn = [resource.DependsOn].flat().filter((id: string) => !outputsByStack.has(id));
  }
  return flat;
}

const isObject = (value: unknown): value is Record<string, any> => typeof value === 'object' && value !== null && !Array.isArray(value);

function replaceDeep(value: any, replace: (value: any) => { found: unknown } | undefined): any {
  const replaced = replace(value);
  if (replaced) return replaced.found;
  if (Array.isArray(value)) return value.map((item) => replaceDeep(item, replace));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, replaceDeep(item, replace)]));
  return value;
}

/** Logical id of a construct's CloudFormation resource, in the template that holds it (kept by `flattenNestedStacks`). */
export function logicalId(construct: IConstruct): string {
  const resource = construct instanceof CfnResource ? construct : construct.node.defaultChild;
  if (!(resource instanceof CfnResource)) throw new Error(`${construct.node.path} has no CloudFormation resource`);
  return Stack.of(resource).getLogicalId(resource);
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

/**
 * Policy checks run on every synth of the app and in the test suite: cdk-nag's
 * AwsSolutions rules and the AWS Control Tower proactive controls (cfn-guard; its
 * binary ships inside @cdklabs/cdk-validator-cfnguard, so it runs offline). cdk-nag 3
 * is a CDK policy-validation plugin (Validations), not an Aspect.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { CfnGuardValidator } from '@cdklabs/cdk-validator-cfnguard';
import {
  Validations,
  type App,
  type IPolicyValidationContextBeta1,
  type IPolicyValidationPluginBeta1,
  type PolicyValidationPluginReportBeta1,
} from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { AuthorizationServer } from './authorization-server';

export interface PolicyCheckOptions {
  /**
   * Run the Control Tower controls too (about 25 s per synth on 2 cores).
   * @default true
   */
  readonly controlTower?: boolean;
}

export function addPolicyChecks(app: App, { controlTower = true }: PolicyCheckOptions = {}): void {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  if (!controlTower) return;
  // Behaviour CUSTODY-2: with the customer-managed key, the log groups of the nested stacks name
  // it through a stack parameter, and cfn-guard's report of CT.CLOUDWATCH.PR.3 on such a value
  // crashes the plugin's own parser ("reading 'to'") before any acknowledgement applies. That one
  // control is left out then; test/infra/custody.test.ts checks every log group's key instead.
  const customerKey = app.node.findAll().some((construct) => construct instanceof AuthorizationServer && construct.encryptionKey);
  const disabledRules = customerKey ? ['ct-cloudwatch-pr-3'] : [];
  Validations.of(app).addPlugins(new WithNestedTemplates(new CfnGuardValidator({ disabledRules })));
}

/**
 * CDK hands a template-reading plugin the templates of top-level stacks only, so cfn-guard
 * would never see the route functions, which live in nested stacks (lib/route-families.ts).
 * This adds every nested stack template of each stack: the file assets of the stack's asset
 * manifest (`<stack>.assets.json`, beside its template) that are nested templates. cdk-nag
 * reads the construct tree and sees them anyway.
 *
 * It also marks each finding without a severity as an error. cdk-validator-cfnguard leaves
 * severity unset, and CDK, once it has applied any acknowledgement to a report, passes the
 * report when no remaining finding is an error or fatal: every unacknowledged Control Tower
 * finding was then let through (found while moving the functions; the test now fails on one).
 */
export class WithNestedTemplates implements IPolicyValidationPluginBeta1 {
  readonly name: string;
  readonly version?: string;
  readonly ruleIds?: string[];

  constructor(private readonly plugin: IPolicyValidationPluginBeta1) {
    this.name = plugin.name;
    this.version = plugin.version;
    this.ruleIds = plugin.ruleIds;
  }

  validate(context: IPolicyValidationContextBeta1): PolicyValidationPluginReportBeta1 {
    const templatePaths = [...new Set(context.templatePaths.flatMap(withNestedTemplatePaths))];
    const report = this.plugin.validate({ ...context, templatePaths });
    return { ...report, violations: report.violations.map((violation) => ({ ...violation, severity: violation.severity ?? 'error' })) };
  }
}

function withNestedTemplatePaths(templatePath: string): string[] {
  const template = JSON.parse(readFileSync(templatePath, 'utf8'));
  const hasNested = Object.values<any>(template.Resources ?? {}).some((resource) => resource.Type === 'AWS::CloudFormation::Stack');
  if (!hasNested) return [templatePath];
  const manifestPath = templatePath.replace(/\.template\.json$/, '.assets.json');
  const manifest = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, 'utf8')) : { files: {} };
  const nested = Object.values<any>(manifest.files ?? {})
    .map((asset) => String(asset.source?.path ?? ''))
    .filter((file) => file.endsWith('.nested.template.json'))
    .map((file) => path.resolve(path.dirname(manifestPath), file));
  // Fail rather than check less than the deploy holds.
  if (nested.length === 0 || !nested.every((file) => existsSync(file))) {
    throw new Error(`${path.basename(templatePath)} has nested stacks whose templates are not beside it`);
  }
  return [templatePath, ...nested];
}

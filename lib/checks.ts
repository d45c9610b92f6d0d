/**
 * Policy checks run on every synth of the app and in the test suite: cdk-nag's
 * AwsSolutions rules and the AWS Control Tower proactive controls (cfn-guard; its
 * binary ships inside @cdklabs/cdk-validator-cfnguard, so it runs offline). cdk-nag 3
 * is a CDK policy-validation plugin (Validations), not an Aspect.
 */
import { CfnGuardValidator } from '@cdklabs/cdk-validator-cfnguard';
import { Validations, type App } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';

export interface PolicyCheckOptions {
  /**
   * Run the Control Tower controls too (about 25 s per synth on 2 cores).
   * @default true
   */
  readonly controlTower?: boolean;
}

export function addPolicyChecks(app: App, { controlTower = true }: PolicyCheckOptions = {}): void {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  if (controlTower) Validations.of(app).addPlugins(new CfnGuardValidator());
}

/**
 * The regional WAF web ACL on the API stage. This is the base: default allow and the
 * AWS managed common rule set. The per-route rate rules derived from the route
 * table's `edge` settings are added by the edge issue.
 */
import { Stack } from 'aws-cdk-lib';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';

export interface ApiWebAclProps {
  /** ARN of the API Gateway stage to protect. */
  readonly stageArn: string;
}

const visibility = (metricName: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
  cloudWatchMetricsEnabled: true,
  sampledRequestsEnabled: true,
  metricName,
});

export class ApiWebAcl extends Construct {
  readonly webAcl: wafv2.CfnWebACL;

  constructor(scope: Construct, id: string, props: ApiWebAclProps) {
    super(scope, id);
    const metricPrefix = Stack.of(this).stackName.replace(/[^A-Za-z0-9_-]/g, '');
    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(`${metricPrefix}-api`),
      rules: [
        {
          name: 'AWSManagedRulesCommonRuleSet',
          priority: 0,
          overrideAction: { none: {} },
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name: 'AWSManagedRulesCommonRuleSet',
              // OAuth clients are programs (CLIs, MCP clients, SDKs); not all send a
              // User-Agent, so its absence is counted, not blocked.
              ruleActionOverrides: [{ name: 'NoUserAgent_HEADER', actionToUse: { count: {} } }],
            },
          },
          visibilityConfig: visibility(`${metricPrefix}-common`),
        },
      ],
    });
    new wafv2.CfnWebACLAssociation(this, 'Association', {
      resourceArn: props.stageArn,
      webAclArn: this.webAcl.attrArn,
    });
  }
}

/**
 * Where resource servers fetch the public keys: `jwks.json` in a private bucket,
 * served only through CloudFront (origin access control), so token validation
 * never calls the service and survives its outages. HTTPS only (HTTP redirects; TLS 1.2 or newer
 * with an alias, behaviour EXPOSURE-2),
 * GET/HEAD only, a short cache (the rotation job waits it out and invalidates on
 * every publish), and security headers on every response.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

export const jwksObjectKey = 'jwks.json';
/** The site logo's objects (lambdas/core/site/logo.ts `logoKeyPrefix`): the uploading function may write only these. */
export const siteAssetPrefix = 'branding/';
export const siteAssetKeyPattern = `${siteAssetPrefix}*`;

export interface JwksDistributionProps {
  /** How long CloudFront and clients may cache `jwks.json`. */
  readonly cacheTtl: Duration;
  /**
   * An alias of the distribution with its ACM certificate (in us-east-1, where CloudFront reads
   * certificates), served with TLS 1.2 or newer only (TLSv1.2_2021; behaviour EXPOSURE-2).
   * @default - none: the *.cloudfront.net name and CloudFront's default certificate, whose minimum protocol is TLSv1
   */
  readonly domain?: { readonly domainName: string; readonly certificateArn: string };
}

export class JwksDistribution extends Construct {
  readonly bucket: s3.Bucket;
  readonly distribution: cloudfront.Distribution;
  /** Response headers of `branding/*` (the site logo): `X-Content-Type-Options: nosniff` among them. */
  readonly siteAssetHeaders: cloudfront.ResponseHeadersPolicy;
  /** `https://<alias>`, or `https://<distribution domain>` without one: the default JWKS_CDN_BASE_URL. */
  readonly baseUrl: string;
  /** The alias, when one is configured (behaviour EXPOSURE-2). */
  readonly domainName?: string;

  constructor(scope: Construct, id: string, props: JwksDistributionProps) {
    super(scope, id);
    this.bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      versioned: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      // Versions of the published key set are an audit trail of rotations.
      removalPolicy: RemovalPolicy.RETAIN,
      // A replaced or removed logo leaves a noncurrent version; nothing needs it after a while.
      lifecycleRules: [{ id: 'OldLogos', prefix: siteAssetPrefix, noncurrentVersionExpiration: Duration.days(30) }],
    });
    const cachePolicy = new cloudfront.CachePolicy(this, 'CachePolicy', {
      comment: 'jwks.json: short TTL so a rotated key set reaches resource servers soon',
      defaultTtl: props.cacheTtl,
      minTtl: Duration.seconds(0),
      maxTtl: props.cacheTtl,
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });
    const responseHeadersPolicy = new cloudfront.ResponseHeadersPolicy(this, 'ResponseHeaders', {
      comment: 'jwks.json: readable from any origin, with security headers',
      // Public keys are public: browser-based token validators may fetch them too.
      corsBehavior: {
        accessControlAllowOrigins: ['*'],
        accessControlAllowMethods: ['GET', 'HEAD'],
        accessControlAllowHeaders: ['*'],
        accessControlAllowCredentials: false,
        accessControlMaxAge: Duration.days(1),
        originOverride: true,
      },
      securityHeadersBehavior: {
        strictTransportSecurity: { accessControlMaxAge: Duration.days(730), includeSubdomains: true, preload: false, override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: cloudfront.HeadersReferrerPolicy.NO_REFERRER, override: true },
        contentSecurityPolicy: { contentSecurityPolicy: "default-src 'none'; frame-ancestors 'none'", override: true },
      },
    });
    // The site logo (behaviour SITE-4): content-addressed keys, so cached for a year; nosniff so
    // a browser never reads the bytes as anything but their fixed image Content-Type.
    const siteAssetCachePolicy = new cloudfront.CachePolicy(this, 'SiteAssetCachePolicy', {
      comment: 'branding/*: content-addressed objects, immutable',
      defaultTtl: Duration.days(365),
      minTtl: Duration.days(1),
      maxTtl: Duration.days(365),
      enableAcceptEncodingGzip: false,
      enableAcceptEncodingBrotli: false,
    });
    this.siteAssetHeaders = new cloudfront.ResponseHeadersPolicy(this, 'SiteAssetHeaders', {
      comment: 'branding/*: images only, never sniffed, never framed',
      securityHeadersBehavior: {
        strictTransportSecurity: { accessControlMaxAge: Duration.days(730), includeSubdomains: true, preload: false, override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: cloudfront.HeadersReferrerPolicy.NO_REFERRER, override: true },
        contentSecurityPolicy: { contentSecurityPolicy: "default-src 'none'; frame-ancestors 'none'; sandbox", override: true },
      },
    });
    const origin = origins.S3BucketOrigin.withOriginAccessControl(this.bucket);
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'Public JWKS of the authorization server',
      defaultBehavior: {
        origin,
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy,
        responseHeadersPolicy,
        compress: true,
      },
      additionalBehaviors: {
        [siteAssetKeyPattern]: {
          origin,
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
          cachePolicy: siteAssetCachePolicy,
          responseHeadersPolicy: this.siteAssetHeaders,
          // Images are compressed already.
          compress: false,
        },
      },
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      // Resource servers run anywhere; all edge locations.
      priceClass: cloudfront.PriceClass.PRICE_CLASS_ALL,
      // Behaviour EXPOSURE-2. CloudFront's default certificate cannot be given a minimum protocol (it
      // stays TLSv1): only an alias with a certificate of its own gets TLS 1.2 or newer.
      ...(props.domain
        ? {
            domainNames: [props.domain.domainName],
            certificate: acm.Certificate.fromCertificateArn(this, 'Certificate', props.domain.certificateArn),
            minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
            sslSupportMethod: cloudfront.SSLMethod.SNI,
          }
        : {}),
    });
    this.domainName = props.domain?.domainName;
    this.baseUrl = `https://${props.domain?.domainName ?? this.distribution.distributionDomainName}`;
  }
}

/**
 * The formats svc signs in (credential.ts, presentation.ts): enumerations only, so that the CLI
 * registers its choices without loading the signing code.
 */
export const SIGNED_CREDENTIAL_FORMATS = ['vc+jwt', 'vc-jwt-1.1', 'di-eddsa-jcs', 'di-ecdsa-jcs', 'sd-jwt'] as const;
export type SignedCredentialFormat = (typeof SIGNED_CREDENTIAL_FORMATS)[number];

export const SIGNED_PRESENTATION_FORMATS = ['vp+jwt', 'di-eddsa-jcs', 'di-ecdsa-jcs', 'sd-jwt'] as const;
export type SignedPresentationFormat = (typeof SIGNED_PRESENTATION_FORMATS)[number];

/** The crypto.validate_keys stage: every declared verification method, validated once. */
import { jwkThumbprint } from '../keys/jwk.js';
import { checkVerificationMethod, type KeyCheckMemo } from '../keys/inspect.js';
import { MAX_VERIFICATION_METHODS, type DeclaredMethod } from './document.js';
import type { KeyEvidence } from './types.js';

export interface KeyValidation {
  keys: KeyEvidence[];
  /** Document warnings about keys listed under relationships they cannot serve. */
  warnings: string[];
}

export async function validateKeys(methods: DeclaredMethod[], memo: KeyCheckMemo = new Map()): Promise<KeyValidation> {
  const keys: KeyEvidence[] = [];
  const warnings: string[] = [];
  for (const [index, method] of methods.entries()) {
    const type = typeof method.value['type'] === 'string' ? (method.value['type'] as string) : null;
    if (index >= MAX_VERIFICATION_METHODS) {
      keys.push({
        id: method.id,
        type,
        relationships: method.relationships,
        status: 'UNSUPPORTED_KEY',
        curve: null,
        jwkThumbprint: null,
        multicodec: null,
        detail: `not validated: the document declares more than ${MAX_VERIFICATION_METHODS} verification methods`,
      });
      continue;
    }
    const check = await checkVerificationMethod(method.value, memo);
    keys.push({
      id: method.id,
      type,
      relationships: method.relationships,
      status: check.status,
      curve: check.curve,
      jwkThumbprint: check.publicJwk ? jwkThumbprint(check.publicJwk) : null,
      multicodec: check.multicodec,
      detail: check.detail,
    });
    if (check.status !== 'VALID_KEY' || !check.curve) continue;
    const signing = method.relationships.filter((r) => r !== 'keyAgreement');
    if (check.curve === 'X25519' && signing.length > 0) {
      warnings.push(`The X25519 key ${method.id} is listed under ${signing.join(', ')}, but X25519 keys cannot sign.`);
    }
    if (check.curve === 'Ed25519' && method.relationships.includes('keyAgreement')) {
      warnings.push(`The Ed25519 key ${method.id} is listed under keyAgreement, but Ed25519 keys cannot agree keys.`);
    }
  }
  return { keys, warnings };
}

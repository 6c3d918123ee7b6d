/**
 * Keyed artifact signatures in cosign's `sign-blob --key` format: ECDSA P-256 over SHA-256 of the blob,
 * base64 of the DER signature. `cosign verify-blob --key pub.pem --signature <b64> blob` accepts what
 * `signBlob` makes, so a release can be checked without Fermix. A key is named by its key id: the
 * SHA-256 (hex) of its SubjectPublicKeyInfo DER.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { FermixError } from '../../core/errors.js';

export interface TrustedKey {
  key_id: string;
  pem: string;
  /** A development key: trusted only under `[fermix_core.plugins] trust_dev_key = true`. */
  dev: boolean;
}

function publicKeyObject(pem: string): KeyObject {
  const key = createPublicKey(pem);
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new FermixError({ code: 'invalid_signing_key', message: 'A plugin publisher key is not an ECDSA P-256 public key.', hint: 'Reinstall Fermix; its resources/keys/ folder is damaged.' });
  }
  return key;
}

export function keyId(publicKeyPem: string): string {
  const der = publicKeyObject(publicKeyPem).export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('hex');
}

export function publicKeyOf(privateKeyPem: string): string {
  return createPublicKey(createPrivateKey(privateKeyPem)).export({ type: 'spki', format: 'pem' }).toString();
}

export function generateSigningKey(): { privatePem: string; publicPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

export function signBlob(privateKeyPem: string, data: Uint8Array): string {
  return sign('sha256', data, { key: createPrivateKey(privateKeyPem), dsaEncoding: 'der' }).toString('base64');
}

export function verifyBlob(publicKeyPem: string, data: Uint8Array, signatureBase64: string): boolean {
  try {
    return verify('sha256', data, { key: publicKeyObject(publicKeyPem), dsaEncoding: 'der' }, Buffer.from(signatureBase64, 'base64'));
  } catch {
    return false;
  }
}

export function sha256Hex(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

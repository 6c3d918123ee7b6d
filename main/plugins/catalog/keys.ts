/**
 * Which keys sign and which keys are trusted (docs/decisions, plugins catalog):
 * - release: the private key comes only from FERMIX_CATALOG_SIGNING_KEY (PEM); its public half must be
 *   resources/keys/catalog-release.pub.pem, which is always trusted.
 * - development: with no release key, the build makes (once) a local key under out/catalog-dev-key/
 *   (never committed, never packaged) and puts its public half at resources/catalog/dev-key.pub.pem
 *   (generated, git-ignored). That key is trusted only when `[fermix_core.plugins] trust_dev_key = true`,
 *   and `fermix doctor` reports that setting as a WARN.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FermixError } from '../../core/errors.js';
import { generateSigningKey, keyId, publicKeyOf, type TrustedKey } from './signing.js';

export const RELEASE_KEY_FILE = 'catalog-release.pub.pem';
export const DEV_KEY_FILE = 'dev-key.pub.pem';

export interface CatalogLocation {
  /** resources/catalog (index.json, artifacts/, dev-key.pub.pem). */
  catalogDir: string;
  /** resources/keys (catalog-release.pub.pem). */
  keysDir: string;
}

export function catalogLocation(resourcesDir: string): CatalogLocation {
  return { catalogDir: join(resourcesDir, 'catalog'), keysDir: join(resourcesDir, 'keys') };
}

export function trustedKeys(location: CatalogLocation, trustDevKey: boolean): TrustedKey[] {
  const keys: TrustedKey[] = [];
  const release = join(location.keysDir, RELEASE_KEY_FILE);
  if (existsSync(release)) {
    const pem = readFileSync(release, 'utf8');
    keys.push({ key_id: keyId(pem), pem, dev: false });
  }
  const dev = join(location.catalogDir, DEV_KEY_FILE);
  if (trustDevKey && existsSync(dev)) {
    const pem = readFileSync(dev, 'utf8');
    keys.push({ key_id: keyId(pem), pem, dev: true });
  }
  return keys;
}

/**
 * The signing key for a build: the release key from the environment, or the local development key.
 * A release build (`release`, or FERMIX_RELEASE_BUILD=1) never falls back to the development key.
 */
export function signingKeyForBuild(options: { env: NodeJS.ProcessEnv; location: CatalogLocation; devKeyDir: string; release?: boolean }): { privatePem: string; mode: 'release' | 'dev' } {
  const releasePem = options.env.FERMIX_CATALOG_SIGNING_KEY?.trim();
  if (!releasePem && (options.release || options.env.FERMIX_RELEASE_BUILD === '1')) {
    throw new FermixError({ code: 'signing_key_missing', message: 'A release catalog build needs FERMIX_CATALOG_SIGNING_KEY, and it is not set.', hint: 'Set FERMIX_CATALOG_SIGNING_KEY to the release private key (PEM), as docs/decisions/0015 describes; only a development build signs with the local dev key.' });
  }
  if (releasePem) {
    const expected = join(options.location.keysDir, RELEASE_KEY_FILE);
    const publicPem = publicKeyOf(releasePem);
    if (!existsSync(expected) || keyId(readFileSync(expected, 'utf8')) !== keyId(publicPem)) {
      throw new FermixError({ code: 'signing_key_mismatch', message: `FERMIX_CATALOG_SIGNING_KEY is not the key whose public half is ${expected}.`, hint: 'Use the release key, or commit its public key to resources/keys/catalog-release.pub.pem.' });
    }
    // A release ships no development key: a stale one beside the index must not survive into the package.
    rmSync(join(options.location.catalogDir, DEV_KEY_FILE), { force: true });
    return { privatePem: releasePem, mode: 'release' };
  }
  const privateFile = join(options.devKeyDir, 'private.pem');
  if (!existsSync(privateFile)) {
    mkdirSync(options.devKeyDir, { recursive: true, mode: 0o700 });
    writeFileSync(privateFile, generateSigningKey().privatePem, { mode: 0o600 });
  }
  const privatePem = readFileSync(privateFile, 'utf8');
  mkdirSync(options.location.catalogDir, { recursive: true });
  writeFileSync(join(options.location.catalogDir, DEV_KEY_FILE), publicKeyOf(privatePem));
  return { privatePem, mode: 'dev' };
}

/**
 * The catalog inside the app: index.json read and validated, its artifacts checked. Verification order
 * is fixed — checksum first (cheap, names a damaged download), then the signature by a trusted key.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { FermixError } from '../../core/errors.js';
import { decodeCatalog, type CatalogArtifact, type CatalogEntry, type CatalogIndex } from './catalog-schema.js';
import { DEV_KEY_FILE, trustedKeys, type CatalogLocation } from './keys.js';
import { sha256Hex, verifyBlob, type TrustedKey } from './signing.js';

export interface Catalog {
  index: CatalogIndex;
  location: CatalogLocation;
  keys: TrustedKey[];
  entry(name: string): CatalogEntry | undefined;
}

export function loadCatalog(location: CatalogLocation, options: { trustDevKey: boolean }): Catalog {
  const file = join(location.catalogDir, 'index.json');
  if (!existsSync(file)) {
    throw new FermixError({ code: 'catalog_missing', message: `The plugin catalog ${file} does not exist.`, hint: 'Build it with `node scripts/build-catalog.mjs` (npm ci runs it), or reinstall Fermix.' });
  }
  const index = decodeCatalog(readFileSync(file, 'utf8'), file);
  const keys = trustedKeys(location, options.trustDevKey);
  return { index, location, keys, entry: (name) => index.plugins.find((plugin) => plugin.name === name) };
}

/** Checks bytes against the catalog's artifact record: sha256, then the signature. Throws a named error. */
export function verifyArtifact(bytes: Uint8Array, artifact: Pick<CatalogArtifact, 'sha256' | 'signature' | 'key_id'>, keys: readonly TrustedKey[], location?: CatalogLocation): void {
  const actual = sha256Hex(bytes);
  if (actual !== artifact.sha256) {
    throw new FermixError({ code: 'checksum_mismatch', message: `The plugin artifact's sha256 is ${actual}, not the catalog's ${artifact.sha256}.`, hint: 'The download is damaged or was tampered with; run `fermix plugins install NAME` again, and reinstall Fermix if it persists.', data: { expected: artifact.sha256, actual } });
  }
  const key = keys.find((candidate) => candidate.key_id === artifact.key_id);
  if (!key) {
    const devKeyPresent = location !== undefined && existsSync(join(location.catalogDir, DEV_KEY_FILE));
    throw new FermixError({
      code: 'untrusted_signer',
      message: `The plugin artifact is signed by key ${artifact.key_id.slice(0, 16)}…, which this Fermix does not trust.`,
      hint: devKeyPresent ? 'This is a development catalog: set `[fermix_core.plugins] trust_dev_key = true` in config.toml to trust its local key (development only).' : 'Reinstall Fermix; its catalog and publisher keys do not match.',
      data: { key_id: artifact.key_id },
    });
  }
  if (!verifyBlob(key.pem, bytes, artifact.signature)) {
    throw new FermixError({ code: 'signature_invalid', message: 'The plugin artifact\'s signature does not verify against its publisher key.', hint: 'The artifact or the catalog was tampered with; reinstall Fermix.', data: { key_id: key.key_id } });
  }
}

/** `file:artifacts/x.tar.gz` resolves inside the catalog directory; anything else is https. */
export function resolveArtifactUrl(location: CatalogLocation, url: string): { kind: 'file'; path: string } | { kind: 'https'; url: string } {
  if (url.startsWith('https://')) return { kind: 'https', url };
  const relative = url.replace(/^file:(\/\/)?/, '');
  const base = resolve(location.catalogDir);
  const path = resolve(base, relative);
  if (!path.startsWith(base + sep)) {
    throw new FermixError({ code: 'invalid_catalog', message: `The catalog artifact URL ${url} points outside the catalog directory.`, hint: 'Reinstall Fermix; its catalog is damaged.' });
  }
  return { kind: 'file', path };
}

import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FermixError } from '../../core/errors.js';
import { buildCatalog } from './build.js';
import { runCatalogBuild } from './build-main.js';
import { loadCatalog, verifyArtifact } from './catalog.js';
import { decodeCatalog } from './catalog-schema.js';
import { signingKeyForBuild } from './keys.js';
import { generateSigningKey, keyId } from './signing.js';

const root = join(import.meta.dirname, '..', '..', '..');
const sources = ['slack', 'github'].map((name) => join(root, 'resources', 'plugins', name));

function refusal(work: () => unknown): FermixError {
  try {
    work();
  } catch (error) {
    if (error instanceof FermixError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('catalog build and verification', () => {
  it('packs deterministically, signs in cosign keyed format (openssl verifies it), and verifies sha256 then signature', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fermix-cat-'));
    try {
      const location = { catalogDir: join(dir, 'catalog'), keysDir: join(dir, 'keys') };
      const key = signingKeyForBuild({ env: {}, location, devKeyDir: join(dir, 'devkey') });
      expect(key.mode).toBe('dev');
      const first = await buildCatalog({ sources, outDir: location.catalogDir, privateKeyPem: key.privatePem, generatedAt: '2026-01-01T00:00:00.000Z' });
      const firstBytes = readFileSync(join(location.catalogDir, 'artifacts', 'slack-1.0.0.tar.gz'));
      const second = await buildCatalog({ sources, outDir: join(dir, 'again'), privateKeyPem: key.privatePem, generatedAt: '2026-01-01T00:00:00.000Z' });
      expect(second.plugins.map((p) => p.versions[0].artifacts[0].sha256)).toEqual(first.plugins.map((p) => p.versions[0].artifacts[0].sha256));
      expect(first.plugins.map((p) => [p.name, p.auth_type, p.rails])).toEqual([['github', 'oauth2', ['http']], ['slack', 'api_key', ['http']]]);

      // The dev key is trusted only with the explicit setting.
      const untrusted = loadCatalog(location, { trustDevKey: false });
      const artifact = untrusted.entry('slack')!.versions[0].artifacts[0];
      const notTrusted = refusal(() => verifyArtifact(firstBytes, artifact, untrusted.keys, location));
      expect(notTrusted.code).toBe('untrusted_signer');
      expect(notTrusted.hint).toContain('trust_dev_key = true');
      const catalog = loadCatalog(location, { trustDevKey: true });
      verifyArtifact(firstBytes, artifact, catalog.keys);

      const flipped = Buffer.from(firstBytes);
      flipped[flipped.length - 10] ^= 0x01;
      expect(refusal(() => verifyArtifact(flipped, artifact, catalog.keys)).code).toBe('checksum_mismatch');
      const other = generateSigningKey();
      const forged = { ...artifact, signature: second.plugins[1].versions[0].artifacts[0].signature.replace(/^.{8}/, 'MEUCIQD/') };
      expect(refusal(() => verifyArtifact(firstBytes, forged, catalog.keys)).code).toBe('signature_invalid');
      expect(refusal(() => verifyArtifact(firstBytes, { ...artifact, key_id: keyId(other.publicPem) }, catalog.keys)).code).toBe('untrusted_signer');

      // cosign sign-blob --key format: base64 DER ECDSA over SHA-256, which openssl checks as is.
      writeFileSync(join(dir, 'sig.der'), Buffer.from(artifact.signature, 'base64'));
      writeFileSync(join(dir, 'blob'), firstBytes);
      const out = execFileSync('openssl', ['dgst', '-sha256', '-verify', join(location.catalogDir, 'dev-key.pub.pem'), '-signature', join(dir, 'sig.der'), join(dir, 'blob')]).toString();
      expect(out).toContain('Verified OK');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a release key that is not the shipped public key, and unknown catalog fields', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fermix-cat-'));
    try {
      cpSync(join(root, 'resources', 'keys'), join(dir, 'keys'), { recursive: true });
      const location = { catalogDir: join(dir, 'catalog'), keysDir: join(dir, 'keys') };
      const error = refusal(() => signingKeyForBuild({ env: { FERMIX_CATALOG_SIGNING_KEY: generateSigningKey().privatePem }, location, devKeyDir: join(dir, 'dev') }));
      expect(error.code).toBe('signing_key_mismatch');
      const bad = refusal(() => decodeCatalog(JSON.stringify({ schema_version: 1, generated_at: 'x', plugins: [], mirror: 'https://x' }), 'index.json'));
      expect(bad.message).toBe('index.json: field `mirror` is not a known field.');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a release build signs with FERMIX_CATALOG_SIGNING_KEY (verified with its public half alone), and refuses to run without it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fermix-cat-'));
    try {
      // The release owner's steps (decision 0015): a P-256 pair, the public half in resources/keys.
      const pair = generateSigningKey();
      const keysDir = join(dir, 'keys');
      mkdirSync(keysDir);
      writeFileSync(join(keysDir, 'catalog-release.pub.pem'), pair.publicPem);
      mkdirSync(join(dir, 'sources'));
      cpSync(join(root, 'resources', 'plugins', 'slack'), join(dir, 'sources', 'slack'), { recursive: true });
      const out = join(dir, 'catalog');
      const args = ['--sources', join(dir, 'sources'), '--out', out, '--keys', keysDir, '--dev-key-dir', join(dir, 'dev'), '--release'];
      expect(await runCatalogBuild(root, args, { FERMIX_CATALOG_SIGNING_KEY: pair.privatePem })).toBe(`catalog: 1 plugins signed with the release key into ${out}`);
      expect(existsSync(join(out, 'dev-key.pub.pem'))).toBe(false);
      const catalog = loadCatalog({ catalogDir: out, keysDir }, { trustDevKey: false });
      expect(catalog.keys.map((key) => [key.key_id, key.dev])).toEqual([[keyId(pair.publicPem), false]]);
      const artifact = catalog.entry('slack')!.versions[0].artifacts[0];
      verifyArtifact(readFileSync(join(out, 'artifacts', 'slack-1.0.0.tar.gz')), artifact, catalog.keys);

      const missing = await runCatalogBuild(root, args, {}).then(() => null, (error: unknown) => error);
      expect([(missing as FermixError).code, (missing as FermixError).message]).toEqual(['signing_key_missing', 'A release catalog build needs FERMIX_CATALOG_SIGNING_KEY, and it is not set.']);
      const viaEnv = await runCatalogBuild(root, args.slice(0, -1), { FERMIX_RELEASE_BUILD: '1' }).then(() => null, (error: unknown) => error);
      expect((viaEnv as FermixError).code).toBe('signing_key_missing');
      expect(existsSync(join(dir, 'dev', 'private.pem'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('scripts/build-catalog.mjs builds and signs a catalog from a clean tree without a committed private key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fermix-cat-'));
    try {
      const out = execFileSync(process.execPath, [join(root, 'scripts', 'build-catalog.mjs'), '--out', join(dir, 'catalog'), '--dev-key-dir', join(dir, 'dev')], { env: { ...process.env, FERMIX_CATALOG_SIGNING_KEY: '' } }).toString();
      expect(out).toContain(`${readdirSync(join(root, 'resources', 'plugins')).length} plugins signed with the dev key`);
      const catalog = loadCatalog({ catalogDir: join(dir, 'catalog'), keysDir: join(root, 'resources', 'keys') }, { trustDevKey: true });
      const slack = catalog.entry('slack')!.versions[0].artifacts[0];
      verifyArtifact(readFileSync(join(dir, 'catalog', 'artifacts', 'slack-1.0.0.tar.gz')), slack, catalog.keys);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * The catalog index (reference §3.3) as a strict zod schema. Differences from tezra-io's index, on
 * purpose: the signature is inline (`signature`, base64 DER ECDSA P-256 over SHA-256 of the artifact,
 * what `cosign sign-blob --key` writes) with the `key_id` that made it, instead of keyless `.sig`/`.pem`
 * URLs — this app has no Fulcio identity to check (see docs/decisions, plugins catalog).
 */
import { z } from 'zod';
import { FermixError } from '../../core/errors.js';
import { PLUGIN_NAME } from '../manifest.js';
import { ONE_SHOT_PARSE } from '../../core/one-shot-parse.js';

const SEMVER = /^\d+\.\d+\.\d+$/;
const HEX64 = /^[0-9a-f]{64}$/;

export const artifactSchema = z.object({
  target: z.string().regex(/^(any|[a-z]+-[a-z0-9_]+)$/),
  url: z.string().regex(/^(file|https):/, 'must be a file: or https: URL'),
  sha256: z.string().regex(HEX64, 'must be 64 lowercase hex digits'),
  signature: z.string().regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64'),
  key_id: z.string().regex(HEX64, 'must be 64 lowercase hex digits'),
  bytes: z.number().int().min(1),
}).strict();
export type CatalogArtifact = z.infer<typeof artifactSchema>;

export const catalogVersionSchema = z.object({
  version: z.string().regex(SEMVER),
  published_at: z.string().min(1),
  min_core_version: z.string().regex(SEMVER),
  plugin_api: z.number().int(),
  artifacts: z.array(artifactSchema).min(1),
}).strict();
export type CatalogVersion = z.infer<typeof catalogVersionSchema>;

export const catalogEntrySchema = z.object({
  name: z.string().regex(PLUGIN_NAME),
  display_name: z.string().min(1),
  category: z.string().min(1),
  description: z.string().min(1),
  short_description: z.string().min(1),
  developer_name: z.string().min(1),
  brand_color: z.string().nullable(),
  logo: z.object({ mime: z.string(), data_base64: z.string() }).strict().nullable(),
  auth_type: z.enum(['api_key', 'oauth2', 'none']),
  auth_provider: z.string().nullable(),
  rails: z.array(z.enum(['http', 'mcp'])),
  // Omitted, never null: tezra-io notes that `null` broke the whole catalog.
  runtime_kind: z.enum(['local_stdio', 'remote_mcp']).optional(),
  bundled: z.boolean().default(false),
  latest: z.string().regex(SEMVER),
  yanked: z.array(z.string().regex(SEMVER)),
  versions: z.array(catalogVersionSchema).min(1),
}).strict();
export type CatalogEntry = z.infer<typeof catalogEntrySchema>;

export const catalogIndexSchema = z.object({
  schema_version: z.literal(1),
  generated_at: z.string().min(1),
  plugins: z.array(catalogEntrySchema),
}).strict();
export type CatalogIndex = z.infer<typeof catalogIndexSchema>;

export function decodeCatalog(text: string, file: string): CatalogIndex {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw invalidCatalog(file, '(root)', `is not valid JSON (${(error as Error).message})`);
  }
  const parsed = catalogIndexSchema.safeParse(raw, ONE_SHOT_PARSE);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('').replace(/^\./, '') || '(root)';
    const keys = issue.code === 'unrecognized_keys' ? (issue as { keys: string[] }).keys : [];
    if (keys.length > 0) throw invalidCatalog(file, path === '(root)' ? keys[0] : `${path}.${keys[0]}`, 'is not a known field');
    throw invalidCatalog(file, path, issue.message);
  }
  const names = new Set<string>();
  for (const entry of parsed.data.plugins) {
    if (names.has(entry.name)) throw invalidCatalog(file, 'plugins', `lists ${entry.name} twice`);
    names.add(entry.name);
    if (!entry.versions.some((version) => version.version === entry.latest)) throw invalidCatalog(file, `${entry.name}.latest`, 'names a version the entry does not list');
  }
  return parsed.data;
}

function invalidCatalog(file: string, field: string, problem: string): FermixError {
  return new FermixError({
    code: 'invalid_catalog',
    message: `${file}: field \`${field}\` ${problem}.`,
    hint: 'The catalog ships inside Fermix: rebuild it with `node scripts/build-catalog.mjs`, or reinstall Fermix.',
    data: { file, field },
  });
}

import type { WireError } from '../../../../main/core/errors.js';

export type ProviderField = 'name' | 'url' | 'key' | 'model';

const KEY_CODES = new Set(['provider_auth', 'needs_secret']);
const URL_CODES = new Set(['provider_unreachable', 'provider_dns', 'provider_tls', 'provider_closed', 'provider_not_found', 'provider_timeout']);

/**
 * Which field of the provider form an error is about, so it can be shown under that field (and the field
 * marked invalid): a rejected key under the key, an unreachable server under the URL, an unknown model
 * under the model. null when the error is about none of the fields shown (it then sits by the button).
 */
export function providerErrorField(error: WireError, shown: readonly ProviderField[]): ProviderField | null {
  const data = JSON.stringify(error.data ?? {});
  let field: ProviderField | null = null;
  if (KEY_CODES.has(error.code) || /^(keychain|secret)/.test(error.code)) field = 'key';
  else if (URL_CODES.has(error.code)) field = 'url';
  else if (error.code === 'provider_model_not_found') field = 'model';
  else if (/base_url/.test(data)) field = 'url';
  else if (/"(path|field)":\s*"?\[?"?name/.test(data)) field = 'name';
  return field !== null && shown.includes(field) ? field : null;
}

/** OAuth's FermixErrors (reference §2.16 texts): each names the one command or screen that fixes it. */
import { FermixError } from '../../core/errors.js';
import { OAUTH_PROVIDERS, type OAuthProviderName } from './providers.js';

export const notConnected = (plugin: string) =>
  new FermixError({ code: 'needs_auth', message: `${plugin} is enabled but not connected.`, hint: `Run \`fermix plugins auth login ${plugin}\`.`, data: { plugin } });

export const needsReconnection = (plugin: string, detail?: string) =>
  new FermixError({ code: 'reauthorization_required', message: `${plugin} needs reconnection.`, hint: `Run \`fermix plugins auth reauthorize ${plugin}\`.`, data: { plugin, ...(detail ? { provider_error: detail } : {}) } });

export const needsClient = (plugin: string, provider: string) =>
  new FermixError({ code: 'needs_client_config', message: `${plugin} signs in through a ${provider} OAuth client, and none is configured.`, hint: `Set one with \`fermix plugins auth client ${provider} --client-id ID\` (the secret is asked for), or on the setup Plugins page.`, data: { plugin, provider } });

/** The client itself was refused: signing in again cannot help (reference §2.16 "Rejected sign-in client"). */
export const clientRejected = (provider: OAuthProviderName, code: string) =>
  new FermixError({ code: 'oauth_client_rejected', message: `${OAUTH_PROVIDERS[provider].display_name} rejected the OAuth client (${code}); its id or secret is wrong or was rotated.`, hint: `Update the client with \`fermix plugins auth client ${provider} --client-id ID\` (or Update client on the setup Plugins page); signing in again will not fix this.`, data: { provider, provider_error: code } });

export const oauthFailed = (provider: OAuthProviderName, detail: string) =>
  new FermixError({ code: 'oauth_failed', message: `${OAUTH_PROVIDERS[provider].display_name} sign-in failed: ${detail}.`, hint: 'Try `fermix plugins auth login NAME` again; `fermix logs` has the details.', data: { provider } });

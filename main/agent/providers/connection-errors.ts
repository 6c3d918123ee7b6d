/**
 * A provider request that never got an HTTP answer, told apart by what really happened: nothing
 * listening (refused), a host name that does not resolve, a certificate the daemon does not trust, a
 * server that closed the socket without answering, or a network that cannot route there. Each gets the
 * first hint that fixes it ("Start Ollama", "Check the base URL"); the old single "could not be
 * reached" (or, through the AI SDK's status-less APICallError, "dropped in the middle") hid which.
 */
import { FermixError } from '../../core/errors.js';
import { cliCommand } from '../../cli/invocation.js';

export interface ConnectionProvider {
  name: string;
  model: string;
  baseUrl?: string;
}

export interface ConnectionFailure {
  error: FermixError;
  transient: boolean;
  retrySameProvider: boolean;
}

const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|EPROTO$|ERR_OSSL)/;

/** The codes and the innermost message of an error's cause chain (the AI SDK wraps fetch, which wraps the socket error). */
function causes(error: unknown): { codes: string[]; innermost: string } {
  const codes: string[] = [];
  let innermost = '';
  for (let e: any = error, depth = 0; e && depth < 8; e = e.cause, depth += 1) {
    if (typeof e.code === 'string') codes.push(e.code);
    if (typeof e.message === 'string' && e.message) innermost = e.message;
  }
  return { codes, innermost: innermost.split('\n')[0].slice(0, 200) };
}

function hostOf(baseUrl: string | undefined): string {
  try {
    return baseUrl ? new URL(baseUrl).host : 'the provider';
  } catch {
    return baseUrl ?? 'the provider';
  }
}

/** Ollama's default port: a refused connection there almost always means Ollama is not running. */
function looksLikeOllama(baseUrl: string | undefined): boolean {
  return baseUrl !== undefined && /:11434(\/|$)/.test(baseUrl);
}

/** Classifies a failure that has no HTTP status; undefined when it is not a connection failure. */
export function classifyConnectionFailure(error: unknown, provider: ConnectionProvider): ConnectionFailure | undefined {
  const { codes, innermost } = causes(error);
  const who = `${provider.name} (${provider.model})`;
  const base = provider.baseUrl ?? 'its default API address';
  const section = `[providers.${provider.name}]`;
  const data = { provider: provider.name, base_url: provider.baseUrl ?? null, cause: codes.at(-1) ?? null };
  const make = (code: string, message: string, hint: string, retrySameProvider: boolean): ConnectionFailure => ({
    error: new FermixError({ code, message, hint, data }),
    // The next provider may work where this one cannot; retrying the same one only for a flaky socket.
    transient: true,
    retrySameProvider,
  });
  const has = (pattern: RegExp) => codes.some((code) => pattern.test(code));
  if (has(/^ECONNREFUSED$/)) {
    const check = `Check the base URL in ${section} (${base}); \`${cliCommand('providers models')} ${provider.name}\` tests it.`;
    return make(
      'provider_refused',
      `${who} refused the connection: nothing is listening at ${hostOf(provider.baseUrl)}.`,
      looksLikeOllama(provider.baseUrl) ? `Start Ollama (\`ollama serve\`), then try again. ${check}` : `Start the model server, or ${check.charAt(0).toLowerCase()}${check.slice(1)}`,
      false,
    );
  }
  if (has(/^(ENOTFOUND|EAI_AGAIN|EAI_NONAME|EAI_FAIL)$/)) {
    return make('provider_dns', `${who}: the host name ${hostOf(provider.baseUrl)} does not resolve (${codes.at(-1)}).`, `Check the base URL in ${section} for a typo in the host name, and that this machine is online.`, false);
  }
  if (has(TLS_CODES) || /certificate|ssl|tls/i.test(innermost)) {
    return make(
      'provider_tls',
      `${who}: the TLS connection to ${hostOf(provider.baseUrl)} failed (${innermost}).`,
      `Check the base URL in ${section}: a local server usually speaks http://, not https://; for a private CA set NODE_EXTRA_CA_CERTS where the daemon starts.`,
      false,
    );
  }
  if (has(/^(ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|EHOSTUNREACH|ENETUNREACH|EHOSTDOWN)$/)) {
    return make('provider_unreachable', `${who} could not be reached at ${hostOf(provider.baseUrl)} (${codes.at(-1)}).`, `Check the base URL in ${section} and the network (firewall, VPN).`, false);
  }
  if (has(/^(UND_ERR_SOCKET|ECONNRESET|EPIPE|UND_ERR_CLOSED)$/) || /other side closed|socket hang up/i.test(innermost)) {
    return make('provider_closed', `${who} closed the connection without answering (${innermost}).`, `Check the base URL in ${section}: it must be the model API (usually ending in /v1), not another service on that port.`, true);
  }
  return undefined;
}

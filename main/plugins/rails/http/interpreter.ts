/**
 * The HTTP rail (reference §3.2 "HTTP interpreter runtime"): validate the arguments, render the
 * template, inject the credential (after validation: the model never sees it), send through Net.Guard
 * with redirects refused, accept identity-encoded JSON only under a 5 MiB streaming cap, page within
 * bounds (default 10 pages, hard cap 50, 10 MiB in total), extract, redact, and class errors.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Ajv } from 'ajv';
import { isFermixError, type FermixError } from '../../../core/errors.js';
import type { ToolResult } from '../../../core/capabilities/index.js';
import { redactValue } from '../../../core/redaction.js';
import { checkUrl, DEFAULT_NET_POLICY, resolveAndPin, systemResolver, type HostResolver, type NetPolicy } from '../../../net/index.js';
import { exchange } from '../../../net/pinned-request.js';
import type { HttpRequestTemplate, ManifestAuth, ManifestTool } from '../../manifest.js';
import { authRejected, errorExcerpt, googleForbidden, httpFailure, railError } from './errors.js';
import { getPath, pickFields } from './extract.js';
import { renderRequest, TemplateArgumentError, type RenderedRequest } from './template.js';

export const HTTP_RAIL_LIMITS = Object.freeze({ responseBytes: 5 * 1024 * 1024, totalBytes: 10 * 1024 * 1024, defaultPages: 10, maxPages: 50 });
const SLACK_STYLE_AUTH_ERRORS = new Set(['invalid_auth', 'not_authed', 'token_revoked', 'token_expired', 'account_inactive']);

export interface HttpRailNet {
  policy?: NetPolicy;
  lookup?: HostResolver;
  ca?: string | Buffer | Array<string | Buffer>;
  /**
   * host → port, for the HTTPS fakes' random ports. Honoured only with a loopback test policy: such a
   * policy reaches 127.0.0.1 only when minted by createTestPolicy (Net.Guard checks that), and only the
   * test composition root passes these options; no config key reaches them.
   */
  testPortOverrides?: Record<string, number>;
}

export interface HttpCallDeps {
  plugin: string;
  auth: ManifestAuth;
  /** Read at call time, after argument validation; null when no credential is stored. */
  credential: () => Promise<string | null>;
  net: HttpRailNet;
  signal?: AbortSignal;
}

// useDefaults: a schema's `default` (Gmail max_results 10, Calendar calendar_id primary) reaches the template.
// ajv (~280 KB with fast-uri) is loaded with the first HTTP-rail call, not with the daemon (start-up).
let ajvLoading: Promise<Ajv> | undefined;
const loadAjv = () =>
  (ajvLoading ??= import('ajv').then((mod) => {
    // CommonJS under ESM interop: the class may be the named export or the default's property.
    const ns = mod as unknown as { Ajv?: typeof Ajv; default: { Ajv?: typeof Ajv } & typeof Ajv };
    const AjvClass = ns.Ajv ?? ns.default.Ajv ?? ns.default;
    return new AjvClass({ allErrors: false, strict: false, useDefaults: true });
  }));
const validators = new WeakMap<object, ReturnType<Ajv['compile']>>();

async function validateArgs(tool: ManifestTool, args: Record<string, unknown>): Promise<void> {
  const schema = tool.parameters ?? { type: 'object' };
  let validate = validators.get(schema);
  if (!validate) validators.set(schema, (validate = (await loadAjv()).compile(schema)));
  if (validate(args)) return;
  const problem = validate.errors?.[0];
  const missing = problem?.keyword === 'required' ? String((problem.params as { missingProperty?: string }).missingProperty) : undefined;
  const where = missing ?? (problem?.instancePath.replace(/^\//, '') || '(arguments)');
  throw railError('invalid_arguments', missing ? `missing required parameter: ${missing}` : `invalid parameter: ${where}`, 'Call tool_describe for the schema and fix the arguments.', { parameter: where });
}

interface Page {
  status: number;
  headers: IncomingHttpHeaders;
  json: unknown;
  bytes: number;
}

function isIdentity(headers: IncomingHttpHeaders): boolean {
  const encoding = String(headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  return encoding === '' || encoding === 'identity';
}

async function send(request: RenderedRequest, credential: string | null, deps: HttpCallDeps, maxBytes: number): Promise<Page> {
  const policy = deps.net.policy ?? DEFAULT_NET_POLICY;
  const url = checkUrl(request.url.href, policy);
  const override = deps.net.testPortOverrides?.[url.hostname];
  if (override !== undefined && policy.allowLoopbackForTests === true) url.port = String(override);
  const headers: Record<string, string> = { 'user-agent': 'fermix-desktop', accept: 'application/json', 'accept-encoding': 'identity', ...request.headers };
  const body = request.rawBody ? request.rawBody.bytes : request.body === undefined ? undefined : Buffer.from(JSON.stringify(request.body));
  if (body) headers['content-type'] = request.rawBody ? request.rawBody.contentType : 'application/json; charset=utf-8';
  if (credential !== null && deps.auth.type !== 'none') {
    const scheme = deps.auth.type === 'api_key' ? deps.auth.scheme : 'Bearer';
    headers[deps.auth.type === 'api_key' ? deps.auth.header.toLowerCase() : 'authorization'] = `${scheme} ${credential}`;
  }
  const target = await resolveAndPin(url, policy, deps.net.lookup ?? systemResolver);
  let response;
  try {
    response = await exchange(target, {
      method: request.method, headers, body, maxBytes, onTooLarge: 'error', connectTimeoutMs: 3_000, receiveTimeoutMs: 15_000, signal: deps.signal, ca: deps.net.ca,
      // Redirects and compressed bodies are refused unread: nothing is decoded past the cap afterwards.
      readBody: (status, responseHeaders) => !(status >= 300 && status < 400) && isIdentity(responseHeaders),
    });
  } catch (error) {
    if (isFermixError(error) && error.code === 'body_too_large') throw railError('response_too_large', 'response exceeds the size cap (downloads belong on the mcp rail)', 'Ask for less (a smaller limit or a narrower query); large downloads belong on the mcp rail.', { max_bytes: maxBytes });
    throw error;
  }
  if (response.status >= 300 && response.status < 400) throw railError('redirect_refused', `redirect refused: HTTP ${response.status} to ${String(response.headers.location ?? '(no Location)')}`, 'Plugin endpoints must answer directly; the manifest needs the final URL.', { status: response.status });
  if (!isIdentity(response.headers)) throw railError('compressed_response', `compressed response refused (Content-Encoding: ${String(response.headers['content-encoding'])})`, 'Plugin endpoints must serve identity encoding; report this to the plugin publisher.', { content_encoding: String(response.headers['content-encoding']) });
  const type = String(response.headers['content-type'] ?? '').toLowerCase();
  let json: unknown;
  if (/^application\/([a-z0-9.+-]*\+)?json\b/.test(type)) {
    try {
      json = JSON.parse(response.body.toString('utf8'));
    } catch {
      json = undefined;
    }
  }
  return { status: response.status, headers: response.headers, json, bytes: response.body.length, ...(json === undefined ? { raw: response.body } : {}) } as Page & { raw?: Buffer };
}

function classify(page: Page & { raw?: Buffer }, template: HttpRequestTemplate, tool: ManifestTool, deps: HttpCallDeps, credential: string | null): void {
  const success = template.success ?? [200];
  if (!success.includes(page.status)) {
    const excerpt = errorExcerpt(page.raw ?? Buffer.from(JSON.stringify(page.json ?? '')), credential);
    if (template.error_model === 'google') {
      const google = googleForbidden(deps.plugin, page.status, page.headers, page.json, excerpt, tool.requires_scopes ?? []);
      if (google) throw google;
    }
    throw httpFailure(deps.plugin, deps.auth, page.status, page.headers, excerpt, tool.requires_scopes ?? []);
  }
  // 204 No Content (Calendar's events.delete) is a success with nothing to read.
  if (page.json === undefined && page.status === 204 && page.bytes === 0) return;
  if (page.json === undefined) throw railError('non_json_response', 'unexpected non-JSON response', `${deps.plugin}'s endpoint answered something other than JSON; report it to the plugin publisher.`, { status: page.status });
  const status = template.body_status;
  if (status && page.json !== null && typeof page.json === 'object' && (page.json as Record<string, unknown>)[status.ok_field] === false) {
    const body = page.json as Record<string, unknown>;
    const code = String(body[status.error_field] ?? 'unknown_error');
    if (SLACK_STYLE_AUTH_ERRORS.has(code)) throw authRejected(deps.plugin, deps.auth);
    if (code === 'missing_scope') throw httpFailure(deps.plugin, deps.auth, 403, {}, '', String(body[status.needed_field ?? 'needed'] ?? '').split(',').filter(Boolean));
    if (code === 'ratelimited') throw httpFailure(deps.plugin, deps.auth, 429, page.headers, '', []);
    throw railError('request_failed', `request failed (${code})`, 'Check the arguments (ids, channel names) and try again.', { provider_error: code });
  }
}

function hasNextLink(headers: IncomingHttpHeaders): boolean {
  return /<[^>]+>;\s*rel="next"/.test(String(headers.link ?? ''));
}

export async function callHttpTool(tool: ManifestTool, args: Record<string, unknown>, deps: HttpCallDeps): Promise<ToolResult> {
  const template = tool.request;
  if (!template) throw railError('not_implemented', `${tool.name} has no HTTP request template.`, 'Reinstall the plugin.');
  // A copy: useDefaults fills defaults in, and the caller's arguments stay as the model sent them.
  args = structuredClone(args);
  await validateArgs(tool, args);
  let request: RenderedRequest;
  try {
    request = renderRequest(template, args);
  } catch (error) {
    if (error instanceof TemplateArgumentError) throw railError('invalid_arguments', error.message, 'Call tool_describe for the schema and fix the arguments.', { parameter: error.parameter });
    throw error;
  }
  // The credential is read only now, after validation, and goes straight into a header.
  const credential = deps.auth.type === 'none' ? null : await deps.credential();
  if (deps.auth.type !== 'none' && credential === null) throw missingCredential(deps);
  const scrub = (value: unknown) => {
    const text = JSON.stringify(redactValue(value)) ?? 'null';
    return credential ? text.split(credential).join('[REDACTED:credential]') : text;
  };
  const paginate = template.paginate;
  if (!paginate) {
    const page = await send(request, credential, deps, HTTP_RAIL_LIMITS.responseBytes);
    classify(page, template, tool, deps, credential);
    const data = pickFields(getPath(page.json, template.extract?.path), template.extract?.fields);
    const text = scrub(data ?? null);
    return { text, data: JSON.parse(text) };
  }
  const maxPages = Math.min(paginate.max_pages ?? HTTP_RAIL_LIMITS.defaultPages, HTTP_RAIL_LIMITS.maxPages);
  const items: unknown[] = [];
  let total = 0;
  let truncated = false;
  let pageNumber = typeof args[('page_param' in paginate ? paginate.page_param : '')] === 'number' ? Number(args[(paginate as { page_param: string }).page_param]) : 1;
  for (let index = 0; ; index += 1) {
    const page = await send(request, credential, deps, Math.min(HTTP_RAIL_LIMITS.responseBytes, HTTP_RAIL_LIMITS.totalBytes - total));
    classify(page, template, tool, deps, credential);
    total += page.bytes;
    const found = getPath(page.json, paginate.items_path);
    const pageItems = Array.isArray(found) ? found : [];
    items.push(...(pickFields(pageItems, paginate.fields) as unknown[]));
    let next: string | number | undefined;
    if (paginate.mode === 'id_window') {
      const last = pageItems[pageItems.length - 1] as Record<string, unknown> | undefined;
      // A path, so Discord members page by `user.id`.
      const id = last === undefined ? undefined : getPath(last, paginate.id_field);
      next = pageItems.length > 0 && id !== undefined && id !== null ? String(id) : undefined;
    } else if (paginate.mode === 'page_number') {
      next = pageItems.length > 0 && hasNextLink(page.headers) ? (pageNumber += 1) : undefined;
    } else {
      const cursor = getPath(page.json, paginate.cursor_path);
      next = typeof cursor === 'string' && cursor !== '' ? cursor : undefined;
    }
    if (next === undefined) break;
    if (index + 1 >= maxPages || total >= HTTP_RAIL_LIMITS.totalBytes) {
      truncated = true;
      break;
    }
    const param = paginate.mode === 'page_number' ? paginate.page_param : paginate.cursor_param;
    if (paginate.mode !== 'page_number' && paginate.cursor_in === 'body') request = { ...request, body: { ...(request.body ?? {}), [param]: next } };
    else {
      const url = new URL(request.url);
      url.searchParams.set(param, String(next));
      request = { ...request, url };
    }
  }
  const text = scrub({ items, truncated });
  return { text, data: JSON.parse(text), audit: { pages_truncated: truncated, items: items.length } };
}

function missingCredential(deps: HttpCallDeps): FermixError {
  if (deps.auth.type === 'oauth2') return railError('needs_auth', `${deps.plugin} is enabled but not connected.`, `Run \`fermix plugins auth login ${deps.plugin}\`.`, { plugin: deps.plugin });
  return railError('needs_secret', `${deps.plugin} has no API key set.`, `Set it with \`fermix plugins auth set ${deps.plugin}\`.`, { plugin: deps.plugin });
}

/** The manifest's health check with a candidate key (Slack's auth.test): true when the provider accepts it. */
export async function checkCredential(plugin: string, auth: ManifestAuth, credential: string, net: HttpRailNet): Promise<{ accepted: boolean; account: string | null }> {
  if (auth.type !== 'api_key' || !auth.health_check || !('url' in auth.health_check)) return { accepted: true, account: null };
  const check = auth.health_check;
  const headers = Object.fromEntries(Object.entries(check.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
  const page = await send({ method: check.method, url: new URL(check.url), headers }, credential, { plugin, auth, credential: async () => credential, net }, 64 * 1024);
  const body = (page.json ?? {}) as Record<string, unknown>;
  const accepted = check.success.includes(page.status) && (check.ok_field === undefined || body[check.ok_field] === true);
  const named = check.account_path === undefined ? undefined : getPath(body, check.account_path);
  const slack = typeof body.user === 'string' ? `${body.user}${typeof body.team === 'string' ? `@${body.team}` : ''}` : null;
  const account = !accepted ? null : check.account_path === undefined ? slack : typeof named === 'string' && named !== '' ? named : null;
  return { accepted, account };
}

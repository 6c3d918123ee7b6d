/**
 * HTTP-rail request templates: install-time validation (`templateProblem`) and rendering with the
 * model's arguments (`renderRequest`). Placeholders are `{param}`. A string that is exactly one
 * placeholder takes the argument's own JSON type (a number stays a number) and is dropped when the
 * argument is absent; placeholders inside longer strings are interpolated (URL path segments encoded).
 */
import type { HttpRequestTemplate, TemplateValue } from '../../manifest.js';
import { multipartRelated, rfc2822 } from './encode.js';

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const WHOLE = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/;
const ABSENT = Symbol('absent');

export interface TemplateProblem {
  field: string;
  message: string;
}

/** Null when the template is acceptable; otherwise the field and what is wrong (for invalid_manifest). */
export function templateProblem(request: HttpRequestTemplate): TemplateProblem | null {
  const match = /^https:\/\/([^/?#]*)/.exec(request.url);
  if (!match) return { field: 'url', message: 'must start with https://' };
  const authority = match[1];
  if (authority === '') return { field: 'url', message: 'has no host' };
  if (/[{}]/.test(authority)) return { field: 'url', message: 'must not have a placeholder in its host' };
  if (authority.includes('@')) return { field: 'url', message: 'must not carry userinfo (user:pass@) in its host' };
  try {
    const parsed = new URL(request.url.replace(PLACEHOLDER, 'x'));
    if (parsed.protocol !== 'https:') return { field: 'url', message: 'must be https' };
    if (parsed.search !== '' || parsed.hash !== '') return { field: 'url', message: 'must not carry a query or fragment (use the `query` map)' };
  } catch {
    return { field: 'url', message: 'is not a valid URL' };
  }
  for (const name of Object.keys(request.headers ?? {})) {
    if (name.toLowerCase() === 'authorization') return { field: `headers.${name}`, message: 'must not be set by the template (the credential is injected by Fermix)' };
  }
  if (request.encode && (request.method === 'GET' || request.method === 'DELETE')) return { field: 'encode', message: `needs a method with a body, not ${request.method}` };
  if (request.encode?.kind === 'multipart_related' && request.paginate) return { field: 'encode', message: 'cannot be combined with paginate' };
  return null;
}

export class TemplateArgumentError extends Error {
  constructor(readonly parameter: string, readonly reason: 'missing' | 'invalid') {
    super(`${reason === 'missing' ? 'missing required parameter' : 'invalid parameter'}: ${parameter}`);
  }
}

function scalarText(value: unknown, name: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new TemplateArgumentError(name, 'invalid');
}

function interpolate(text: string, args: Record<string, unknown>, encode: boolean): string | typeof ABSENT {
  const whole = WHOLE.exec(text);
  if (whole && args[whole[1]] === undefined) return ABSENT;
  return text.replace(PLACEHOLDER, (_, name: string) => {
    const value = args[name];
    if (value === undefined) throw new TemplateArgumentError(name, 'missing');
    const textValue = scalarText(value, name);
    return encode ? encodeURIComponent(textValue) : textValue;
  });
}

/**
 * Renders one template value; ABSENT means "leave this key out". A nested object or array whose every
 * entry was absent is absent too: a PATCH must not send `start: {}` or `parents: []` for an argument
 * the model left out (Calendar and Drive would read those as "clear it").
 */
function renderValue(value: TemplateValue, args: Record<string, unknown>): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole) return args[whole[1]] === undefined ? ABSENT : args[whole[1]];
    return interpolate(value, args, false);
  }
  if (Array.isArray(value)) {
    const items = value.map((item) => renderValue(item, args)).filter((item) => item !== ABSENT);
    return items.length === 0 && value.length > 0 ? ABSENT : items;
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const rendered = renderValue(item, args);
      if (rendered !== ABSENT) out[key] = rendered;
    }
    return Object.keys(out).length === 0 && Object.keys(value).length > 0 ? ABSENT : out;
  }
  return value;
}

export interface RenderedRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: Record<string, unknown>;
  /** Set by a `multipart_related` encoder: sent as is instead of JSON. */
  rawBody?: { bytes: Buffer; contentType: string };
}

export function renderRequest(template: HttpRequestTemplate, args: Record<string, unknown>): RenderedRequest {
  const path = interpolate(template.url, args, true);
  if (path === ABSENT) throw new TemplateArgumentError(WHOLE.exec(template.url)?.[1] ?? 'url', 'missing');
  const url = new URL(path);
  for (const [key, value] of Object.entries(template.query ?? {})) {
    const rendered = renderValue(value, args);
    if (rendered === ABSENT) continue;
    if (rendered !== null && typeof rendered === 'object') url.searchParams.set(key, JSON.stringify(rendered));
    else url.searchParams.set(key, String(rendered));
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(template.headers ?? {})) {
    const rendered = interpolate(value, args, false);
    if (rendered !== ABSENT) headers[name.toLowerCase()] = rendered;
  }
  const rendered = template.body === undefined ? undefined : renderValue(template.body, args);
  const body = rendered === undefined ? undefined : rendered === ABSENT ? {} : (rendered as Record<string, unknown>);
  const encoder = template.encode;
  if (encoder?.kind === 'rfc2822') return { method: template.method, url, headers, body: { ...(body ?? {}), [encoder.field]: rfc2822(encoder, args) } };
  if (encoder?.kind === 'multipart_related') return { method: template.method, url, headers, rawBody: multipartRelated(encoder, body ?? {}, args) };
  return { method: template.method, url, headers, body };
}

/**
 * Glob → RegExp for glob_search (no glob library is a dependency, and Node 20 has no fs.glob).
 * Supported: `**` (any number of folders, as a whole segment), `*`, `?`, `[abc]`/`[!a-z]`/`[^a-z]`,
 * `{a,b}` (nestable), `\` escapes. Dotfiles match like any other name (Fermix includes them).
 * Matching is against `/`-separated paths relative to the search root.
 */
import { FermixError } from '../core/errors.js';

const META = /[*?[{\\]/;

export interface CompiledGlob {
  regex: RegExp;
  /** Leading segments without wildcards (`docs/api` in `docs/api/**\/*.md`): walking starts there. */
  staticPrefix: string;
  /** The rest, matched below staticPrefix. */
  rest: string;
}

export function compileGlob(pattern: string): CompiledGlob {
  const segments = pattern.split('/').filter((s, i) => s !== '' || i === 0);
  const staticParts: string[] = [];
  while (segments.length > 1 && !META.test(segments[0])) staticParts.push(segments.shift() as string);
  const rest = segments.join('/');
  if (rest === '') throw invalidPattern(pattern, 'it names no file');
  return { regex: new RegExp(`^${segmentsToRegex(rest.split('/'), pattern)}$`), staticPrefix: staticParts.join('/'), rest };
}

function segmentsToRegex(segments: string[], pattern: string): string {
  let out = '';
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    if (segment === '**') {
      // Zero or more whole folders; as the last segment, anything below.
      out += last ? '.*' : '(?:[^/]+/)*';
      return;
    }
    out += segmentToRegex(segment, pattern) + (last ? '' : '/');
  });
  return out;
}

function segmentToRegex(segment: string, pattern: string): string {
  let out = '';
  let depth = 0;
  for (let i = 0; i < segment.length; i += 1) {
    const c = segment[i];
    if (c === '\\') {
      i += 1;
      if (i >= segment.length) throw invalidPattern(pattern, 'it ends with a lone backslash');
      out += escapeRegex(segment[i]);
    } else if (c === '*') {
      while (segment[i + 1] === '*') i += 1; // `**` inside a segment is just `*`
      out += '[^/]*';
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const end = segment.indexOf(']', i + 2);
      if (end === -1) {
        out += '\\[';
        continue;
      }
      let body = segment.slice(i + 1, end);
      const negate = body.startsWith('!') || body.startsWith('^');
      if (negate) body = body.slice(1);
      out += `[${negate ? '^/' : ''}${body.replace(/\\/g, '\\\\').replace(/^\]/, '\\]')}]`;
      i = end;
    } else if (c === '{') {
      depth += 1;
      out += '(?:';
    } else if (c === '}' && depth > 0) {
      depth -= 1;
      out += ')';
    } else if (c === ',' && depth > 0) {
      out += '|';
    } else {
      out += escapeRegex(c);
    }
  }
  if (depth !== 0) throw invalidPattern(pattern, 'a `{` is not closed');
  return out;
}

function escapeRegex(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function invalidPattern(pattern: string, why: string): FermixError {
  return new FermixError({
    code: 'missing_pattern',
    message: `The glob pattern ${JSON.stringify(pattern)} is not usable: ${why}.`,
    hint: 'Use a pattern such as **/*.ts, src/*.md or notes/{a,b}.txt.',
    data: { pattern },
  });
}

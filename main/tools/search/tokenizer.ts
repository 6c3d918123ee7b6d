/**
 * tool_search's text analysis. Identifiers are split on snake_case, camelCase, kebab-case and digits;
 * every word is indexed twice, as its exact lowercase form and as its English (Porter) stem, because
 * stems alone hurt terse keyword queries: "issues" vs "issue" is what separates list_issues from
 * get_issue. A small hand-kept vocabulary expands software abbreviations (PR, k8s, repo, …); WordNet
 * synonym expansion was measured on a tool-search set and gave nothing, so there is none.
 */
import { stemmer } from 'stemmer';

/** Stems live in their own term space, so an exact match scores both its forms and a stem-only match one. */
export const STEM_PREFIX = '~';

/** Words that carry no intent in a tool request; dropped from queries and documents alike. */
const STOPWORDS = new Set(
  ('a an and are as at be by can could do does for from has have how i if in into is it its me my of on or our ' +
    'please that the their them then there these this those to us was we what when where which who why will with ' +
    'would you your all any some want need show tell let').split(' '),
);

/**
 * Abbreviations and their spelled-out words (both directions are indexed: a query "pr" finds a tool
 * describing "pull requests", and "pull request" finds a tool named `*_pr_*`). Kept short on purpose.
 */
const ABBREVIATIONS: Record<string, string[]> = {
  pr: ['pull', 'request'], prs: ['pull', 'requests'], mr: ['merge', 'request'], mrs: ['merge', 'requests'],
  dm: ['direct', 'message'], dms: ['direct', 'messages'], repo: ['repository'], repos: ['repositories'],
  k8s: ['kubernetes'], db: ['database'], dbs: ['databases'], env: ['environment'], msg: ['message'],
  msgs: ['messages'], ci: ['pipeline'], cd: ['deploy'], config: ['configuration'], dir: ['directory'],
  dirs: ['directories'], folder: ['directory'], folders: ['directories'], doc: ['document'], docs: ['documentation'],
  info: ['information'], auth: ['authentication'], todo: ['task'], todos: ['tasks'],
  ticket: ['issue'], tickets: ['issues'], bug: ['issue'], bugs: ['issues'], email: ['mail', 'message'],
  mail: ['email'], dns: ['domain'], vm: ['instance'], sql: ['query'], url: ['link'], urls: ['links'],
  mkdir: ['create', 'directory'], ls: ['list'], rm: ['delete'], mv: ['move'], cp: ['copy'],
};

const cache = new Map<string, string>();

export function stem(word: string): string {
  let value = cache.get(word);
  if (value === undefined) {
    value = /^[a-z]+$/.test(word) ? stemmer(word) : word;
    if (cache.size > 50_000) cache.clear();
    cache.set(word, value);
  }
  return value;
}

/**
 * Lowercase words of a text or identifier: `getPullRequest_files-v2` → get, pull, request, files, v2.
 * A mixed-case word also keeps its whole form (GitHub → github, git, hub; YouTube → youtube, you, tube),
 * since prose spells product names that way and a query types them in one piece.
 */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const chunk of text.split(/[^A-Za-z0-9]+/)) {
    if (chunk.length === 0) continue;
    const parts = chunk
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
      .toLowerCase()
      .split(' ');
    if (parts.length > 1 && /^[A-Z]?[a-z]+[A-Z][a-z]+$/.test(chunk)) out.push(chunk.toLowerCase());
    out.push(...parts);
  }
  return out;
}

/** Content words of a text with their abbreviation expansions, stopwords dropped. */
export function contentWords(text: string): string[] {
  const out: string[] = [];
  for (const word of words(text)) {
    if (STOPWORDS.has(word)) continue;
    out.push(word);
    const expansion = ABBREVIATIONS[word];
    if (expansion) out.push(...expansion);
  }
  return out;
}

/** Index terms of a text: each content word as its exact form and its prefixed stem. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const word of contentWords(text)) out.push(word, STEM_PREFIX + stem(word));
  return out;
}

/**
 * Plain words for approval cards: what a tool is about to do ("Run a command"), what it acts on, and
 * what "Always allow" would save, said as a sentence rather than as the TOML rule (the daemon stores
 * exactly `always_covers`; these words describe that rule and nothing wider).
 */
import type { AlwaysCovers } from '../thread/thread-types.js';

const ACTIONS: Record<string, string> = {
  shell: 'Run a command',
  file_write: 'Write a file',
  file_edit: 'Edit a file',
  file_read: 'Read a file',
  glob_search: 'List files',
  content_search: 'Search in files',
  web_fetch: 'Open a web page',
  web_search: 'Search the web',
  browser: 'Use the browser',
  computer_use: 'Use the mouse and keyboard',
  git_write: 'Change a git repository',
  git_read: 'Read a git repository',
  send_attachment: 'Send you a file',
  memory_store: 'Remember something',
  schedule_job: 'Schedule a job',
  request_directory_access: 'Ask for a folder',
};

/** What the call does, in a few words; an unknown tool is named as it is ("Use my_plugin_tool"). */
export function actionWords(capability: string): string {
  return ACTIONS[capability] ?? `Use ${capability}`;
}

/** The one thing the call acts on, as people would check it: the command, path, URL or query. */
export function targetOf(args: unknown): { label: string; value: string } | null {
  if (!args || typeof args !== 'object') return null;
  const record = args as Record<string, unknown>;
  for (const [key, label] of [['command', 'Command'], ['path', 'File'], ['url', 'Address'], ['query', 'Search'], ['pattern', 'Pattern']] as const) {
    if (typeof record[key] === 'string') return { label, value: record[key] as string };
  }
  return null;
}

export interface ContentPreview {
  kind: 'write' | 'edit';
  /** Lines with a sign: '+' added, '-' removed. */
  lines: { sign: '+' | '-'; text: string }[];
  /** Lines left out of the preview. */
  more: number;
}

const PREVIEW_LINES = 40;

/** What a file_write would put in the file, or what a file_edit would change, as diff lines. */
export function contentPreview(capability: string, args: unknown): ContentPreview | null {
  if (!args || typeof args !== 'object') return null;
  const record = args as Record<string, unknown>;
  if (capability === 'file_write' && typeof record.content === 'string') return cap('write', record.content.split('\n').map((text) => ({ sign: '+' as const, text })));
  if (capability === 'file_edit' && typeof record.old_string === 'string' && typeof record.new_string === 'string') {
    const removed = record.old_string.split('\n').map((text) => ({ sign: '-' as const, text }));
    const added = record.new_string === '' ? [] : record.new_string.split('\n').map((text) => ({ sign: '+' as const, text }));
    return cap('edit', [...removed, ...added]);
  }
  return null;
}

function cap(kind: ContentPreview['kind'], lines: ContentPreview['lines']): ContentPreview {
  return { kind, lines: lines.slice(0, PREVIEW_LINES), more: Math.max(0, lines.length - PREVIEW_LINES) };
}

/**
 * The saved rule in words. A shell pattern like `git status *` is "this program and subcommand with any
 * arguments"; no pattern is "every call of this tool"; anything else is that exact value.
 */
export function ruleWords(capability: string, covers: AlwaysCovers): { code: string | null; scope: string; sentence: string } {
  const what = actionWords(capability).toLowerCase();
  const pattern = covers.pattern;
  let scope: string;
  let sentence: string;
  let code: string | null = null;
  if (!pattern || pattern === '*') {
    scope = `every ${capability} call`;
    sentence = `From now on Fermix may ${what} without asking, whatever the arguments.`;
  } else if (capability === 'shell' && pattern.endsWith(' *')) {
    const head = pattern.slice(0, -2);
    code = head;
    scope = 'with any arguments';
    sentence = `From now on commands starting with “${head}” run without asking (rule: ${pattern}), but not when combined with other commands.`;
  } else if (pattern.endsWith('/*') || pattern.endsWith('/**')) {
    const folder = pattern.replace(/\/\*\*?$/, '');
    code = folder;
    scope = 'and everything in it';
    sentence = `From now on Fermix may ${what} in ${folder} without asking.`;
  } else {
    code = pattern;
    scope = 'exactly';
    sentence = 'Only this exact call runs without asking from now on; anything else still asks.';
  }
  if (covers.unjailed) sentence += ' It runs outside the OS jail, with your account’s full rights.';
  return { code, scope, sentence: `${sentence} Saved in config.toml, where you can remove it.` };
}

/**
 * The gate's reason without its internals: the default "X can change things (policy class exec), so it
 * needs your approval" becomes one plain sentence; any other reason (a rule's) loses the class only.
 */
export function plainReason(reason: string): string {
  if (/^\S+ can change things \(policy class [^)]*\), so it needs your approval\.?$/.test(reason)) return 'This can change files or your system, so Fermix asks you first.';
  return reason.replace(/\s*\(policy class [^)]*\)/g, '');
}

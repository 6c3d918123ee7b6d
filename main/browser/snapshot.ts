import type { Page } from 'playwright-core';

/**
 * The accessibility snapshot the model reads: Playwright's AI-mode aria tree (its refs resolve through
 * `page.getByRef`, and only for the latest snapshot of that page), rendered here as indented lines with
 * our caps — depth 5 by default (20 max), at most 200 children per node, at most 50,000 characters.
 */
export const SNAPSHOT_MAX_CHARS = 50_000;
export const SNAPSHOT_MAX_CHILDREN = 200;

export interface SnapshotOptions {
  interactive: boolean;
  compact: boolean;
  depth: number;
  includeUrls: boolean;
}

type AriaNode = string | { role?: string; name?: string; text?: string; ref?: string; url?: string; children?: AriaNode[]; [key: string]: unknown };

const INTERACTIVE_ROLES = new Set([
  'button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox', 'option', 'menuitem', 'menuitemcheckbox',
  'menuitemradio', 'tab', 'switch', 'slider', 'spinbutton', 'treeitem', 'gridcell',
]);
// Content worth showing even in interactive mode: where the page is, and what it says back after an action.
const IMPORTANT_ROLES = new Set(['heading', 'alert', 'status', 'dialog', 'alertdialog', 'img', 'paragraph', 'cell', 'log', 'banner', 'main']);
const STATE_KEYS = ['checked', 'disabled', 'expanded', 'level', 'pressed', 'selected', 'invalid', 'active'];

function quote(text: string): string {
  return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);
}

function describe(node: Exclude<AriaNode, string>, options: SnapshotOptions): string {
  let line = node.role ?? 'generic';
  if (node.name) line += ` ${quote(node.name)}`;
  for (const key of STATE_KEYS) {
    const value = node[key];
    if (value === true) line += ` [${key}]`;
    else if (value !== undefined && value !== false) line += ` [${key}=${String(value)}]`;
  }
  if (typeof node.placeholder === 'string') line += ` [placeholder=${quote(node.placeholder)}]`;
  if (node.ref) line += ` [ref=${node.ref}]`;
  if (options.includeUrls && typeof node.url === 'string') line += ` [url=${node.url}]`;
  if (node.text) line += `: ${quote(node.text)}`;
  return line;
}

/** Whether a node is shown, or only its children are (hoisted one level up). */
function keeps(node: Exclude<AriaNode, string>, options: SnapshotOptions): boolean {
  const role = node.role ?? 'generic';
  if (options.interactive) return INTERACTIVE_ROLES.has(role) || IMPORTANT_ROLES.has(role) || (role !== 'generic' && Boolean(node.name));
  if (!options.compact) return true;
  return role !== 'generic' || Boolean(node.name) || Boolean(node.text);
}

export function renderSnapshot(nodes: AriaNode[], options: SnapshotOptions): { text: string; refs: number; truncated: boolean } {
  const lines: string[] = [];
  let chars = 0;
  let truncated = false;
  let refs = 0;

  const emit = (indent: number, text: string): boolean => {
    const line = `${'  '.repeat(indent)}- ${text}`;
    if (chars + line.length + 1 > SNAPSHOT_MAX_CHARS) {
      truncated = true;
      return false;
    }
    lines.push(line);
    chars += line.length + 1;
    return true;
  };

  const walk = (list: AriaNode[], indent: number): void => {
    const shown = list.slice(0, SNAPSHOT_MAX_CHILDREN);
    for (const node of shown) {
      if (truncated) return;
      if (typeof node === 'string') {
        // Bare text fragments: labels and prose. Interactive mode leaves them to the named elements.
        if (!options.interactive && node.trim() !== '') emit(indent, `text: ${quote(node.trim())}`);
        continue;
      }
      const children = Array.isArray(node.children) ? node.children : [];
      if (keeps(node, options)) {
        if (node.ref) refs += 1;
        if (!emit(indent, describe(node, options))) return;
        walk(children, indent + 1);
      } else {
        walk(children, indent);
      }
    }
    if (list.length > shown.length && !truncated) emit(indent, `… ${list.length - shown.length} more children not shown (cap ${SNAPSHOT_MAX_CHILDREN})`);
  };
  walk(nodes, 0);
  if (truncated) lines.push(`[snapshot cut at ${SNAPSHOT_MAX_CHARS} characters: use a smaller depth, or act kind=get field=text with a selector]`);
  return { text: lines.join('\n'), refs, truncated };
}

export async function takeSnapshot(page: Page, options: SnapshotOptions): Promise<{ text: string; refs: number; truncated: boolean }> {
  const tree = (await page.ariaSnapshotJSON({ mode: 'ai', depth: options.depth })) as unknown;
  return renderSnapshot(Array.isArray(tree) ? (tree as AriaNode[]) : [tree as AriaNode], options);
}

/**
 * The lazily loaded half of code highlighting (a chunk of its own: see code-block.tsx). highlight.js
 * grammars through lowlight, which gives a tree (hast) instead of an HTML string, so the spans are made
 * as React elements and nothing becomes innerHTML. A curated set of what models write; an unknown
 * language stays plain. Classes are `tok-*` (styles.css, "Code highlighting") so light and dark themes
 * are CSS variables.
 */
import { createLowlight } from 'lowlight';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import markdown from 'highlight.js/lib/languages/markdown';
import php from 'highlight.js/lib/languages/php';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

const lowlight = createLowlight({ bash, c, cpp, csharp, css, diff, dockerfile, go, ini, java, javascript, json, kotlin, markdown, php, python, ruby, rust, shell, sql, swift, typescript, xml, yaml });
// Names models use that highlight.js does not know as aliases (toml is close enough to ini).
lowlight.registerAlias({ ini: ['toml'], bash: ['sh', 'zsh'], shell: ['console'], xml: ['html', 'svg', 'vue'], typescript: ['tsx', 'mts'], javascript: ['jsx', 'mjs', 'cjs'], json: ['jsonc'] });

/** A piece of highlighted code: text, or a span with token classes around more pieces. */
export type CodePiece = string | { className: string; children: CodePiece[] };

interface HastText { type: 'text'; value: string }
interface HastElement { type: 'element'; properties: { className?: unknown }; children: HastNode[] }
type HastNode = HastText | HastElement | { type: 'comment' | 'doctype' };

function toPieces(nodes: readonly HastNode[]): CodePiece[] {
  const pieces: CodePiece[] = [];
  for (const node of nodes) {
    if (node.type === 'text') pieces.push(node.value);
    else if (node.type === 'element') {
      const names = node.properties.className;
      pieces.push({ className: Array.isArray(names) ? names.join(' ') : String(names ?? ''), children: toPieces(node.children) });
    }
  }
  return pieces;
}

/** Null for a language outside the curated set: the block stays plain text. */
export function highlightCode(code: string, lang: string): CodePiece[] | null {
  const name = lang.toLowerCase();
  if (!name || !lowlight.registered(name)) return null;
  const tree = lowlight.highlight(name, code, { prefix: 'tok-' });
  return toPieces(tree.children as HastNode[]);
}

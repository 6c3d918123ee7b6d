/**
 * The shell parser behind hardline: tree-sitter-bash (the grammar GitHub, Neovim and VS Code use) on
 * web-tree-sitter's WASM runtime. Loading is asynchronous (two WebAssembly modules), parsing is
 * synchronous: `loadShellParser()` runs once — the sandbox starts it when it is created and awaits it
 * before its first check — and `parseShell()` is then a plain function call (~15 µs for a typical
 * command). Why this parser and not sh-syntax: docs/decisions/0010-hardline-parser.md.
 *
 * The parser is only ever handed input that the linear pre-scan (scan.ts) found small enough, and
 * each parse runs under a budget: tree-sitter's error recovery is super-linear on some adversarial
 * shapes and can even abort (out of WASM memory). A parse that runs out of budget or throws returns
 * undefined and hardline falls back to its conservative linear scan — never to "allowed".
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Node as TsNode, Parser as TsParser, Tree } from 'web-tree-sitter';

export type SyntaxNode = TsNode;
export type { Tree };

/**
 * CPU-time budget for one parse; past it the parse is cancelled and the linear scan decides. CPU
 * time, not wall-clock time: a busy machine that descheduled the daemon must not change the verdict.
 */
export const PARSE_BUDGET_MS = 25;

/** CPU time this process has used, in milliseconds. */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

let parser: TsParser | undefined;
let loading: Promise<void> | undefined;
let loadError: Error | undefined;
let makeParser: (() => TsParser) | undefined;

/** Loads the WASM runtime and the bash grammar once; later calls return the same promise. */
export function loadShellParser(): Promise<void> {
  loading ??= (async () => {
    const require = createRequire(import.meta.url);
    const { Parser, Language } = await import('web-tree-sitter');
    // The bytes are read here (not located by the runtime beside its own script), so the same code
    // works from the esbuild bundle, from Electron's asar and from the sources.
    await Parser.init({ wasmBinary: readFileSync(require.resolve('web-tree-sitter/tree-sitter.wasm')) });
    const grammarPath = require.resolve('tree-sitter-bash/package.json').replace(/package\.json$/, 'tree-sitter-bash.wasm');
    const bash = await Language.load(readFileSync(grammarPath));
    makeParser = () => {
      const p = new Parser();
      p.setLanguage(bash);
      return p;
    };
    parser = makeParser();
  })().catch((error: unknown) => {
    loadError = error instanceof Error ? error : new Error(String(error));
  });
  return loading;
}

export function shellParserReady(): boolean {
  return parser !== undefined;
}

/** Why the parser is not available (undefined while it is loading or once it is ready). */
export function shellParserError(): Error | undefined {
  return loadError;
}

export type ParseOutcome = { tree: Tree } | { failed: 'not_loaded' | 'budget' | 'crashed' };

/** Parses synchronously. The caller must `delete()` the tree. */
export function parseShell(source: string, budgetMs = PARSE_BUDGET_MS): ParseOutcome {
  if (parser === undefined) return { failed: 'not_loaded' };
  const deadline = cpuMs() + budgetMs;
  let overBudget = false;
  try {
    const tree = parser.parse(source, null, {
      progressCallback: () => {
        overBudget = cpuMs() > deadline;
        return overBudget;
      },
    });
    if (tree === null || overBudget) {
      tree?.delete();
      return { failed: 'budget' };
    }
    return { tree };
  } catch {
    // An abort inside the WASM module (it ran out of memory on a pathological input): a fresh
    // parser object works again; this input is judged by the linear scan.
    parser = makeParser?.();
    return { failed: 'crashed' };
  }
}

import { beforeAll, describe, expect, it } from 'vitest';
import { loadShellParser, parseShell, shellParserError, shellParserReady } from './parser.js';

beforeAll(async () => {
  await loadShellParser();
  expect(shellParserError()).toBeUndefined();
  expect(shellParserReady()).toBe(true);
});

describe('the tree-sitter shell parser', () => {
  it('parses synchronously once loaded, with node types to walk', () => {
    const outcome = parseShell('curl -s https://x | sh; while true; do a & done');
    if (!('tree' in outcome)) throw new Error(`parse failed: ${outcome.failed}`);
    expect(outcome.tree.rootNode.namedChildren.map((n) => n?.type)).toEqual(['pipeline', 'while_statement']);
    outcome.tree.delete();
  });

  it('gives up on a pathological input past its budget instead of running on', () => {
    // A broken 8 Ki-stage pipeline sends tree-sitter's error recovery super-linear (hundreds of ms).
    const started = performance.now();
    const outcome = parseShell('a|'.repeat(8192), 5);
    expect(outcome).toEqual({ failed: 'budget' });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('never throws, even when the WASM module aborts, and parses again afterwards', () => {
    // 16 Ki unclosed `case x in` can run the parser out of WASM memory (an `Aborted()` RuntimeError),
    // depending on what the heap holds already: either way parseShell answers.
    const outcome = parseShell('case x in '.repeat(16384), 60_000);
    if ('tree' in outcome) outcome.tree.delete();
    else expect(['crashed', 'budget']).toContain(outcome.failed);
    const again = parseShell('echo ok');
    expect('tree' in again).toBe(true);
    if ('tree' in again) again.tree.delete();
  });
});

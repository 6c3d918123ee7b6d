/**
 * Is a shell command ONE plain command — a program and its words, nothing else? The approval card only
 * offers a program-and-subcommand scope (`git status *`) for such a command: for a list, pipeline,
 * substitution, expansion, redirect, assignment or anything the parser cannot read cleanly, "commands
 * starting with git status" would describe less than the rule could allow, so only the exact command is
 * offered. The reader is hardline's tree-sitter-bash parser (hardline/parser.ts); while it has not
 * loaded, the answer is false (the conservative one).
 */
import { parseShell, type SyntaxNode } from './hardline/parser.js';

/** Node types that make a command more than one program with literal words. */
const NOT_PLAIN = new Set([
  'list', 'pipeline', 'subshell', 'compound_statement', 'redirected_statement', 'negated_command',
  'command_substitution', 'process_substitution', 'expansion', 'simple_expansion', 'arithmetic_expansion',
  'file_redirect', 'heredoc_redirect', 'herestring_redirect', 'variable_assignment', 'variable_assignments',
  'function_definition', 'if_statement', 'while_statement', 'for_statement', 'c_style_for_statement', 'case_statement',
  'ERROR',
]);

function hasOnlyPlainNodes(node: SyntaxNode): boolean {
  if (NOT_PLAIN.has(node.type) || node.isMissing) return false;
  return node.children.every((child) => child !== null && hasOnlyPlainNodes(child));
}

export function isSimpleCommand(command: string): boolean {
  const outcome = parseShell(command);
  if (!('tree' in outcome)) return false;
  try {
    const root = outcome.tree.rootNode;
    if (root.hasError) return false;
    // All children, named or not: a trailing `&` or `;` is an unnamed token beside the command.
    const statements = root.children.filter((child) => child !== null && child.type !== 'comment');
    return statements.length === 1 && statements[0]!.type === 'command' && hasOnlyPlainNodes(statements[0]!);
  } finally {
    outcome.tree.delete();
  }
}

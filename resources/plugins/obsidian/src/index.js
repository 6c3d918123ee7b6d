// @ts-check
/**
 * The Obsidian plugin's MCP server (stdio, newline-delimited JSON-RPC 2.0, MCP tools only). It has no
 * dependencies on purpose: the plugin ships unvendored (`vendored: false`), so it must run on a bare
 * Node ≥ 20 with nothing installed. Fermix prefixes the tool names with `obsidian_`.
 * The vault comes from OBSIDIAN_VAULT_PATH, which Fermix injects from [fermix_core.plugins.obsidian].
 */
import { createInterface } from 'node:readline';
import { appendNote, createNote, listFolder, openVault, readNote, searchNotes, VaultError } from './vault.js';

const SUPPORTED_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];
const str = (description) => ({ type: 'string', description });

const TOOLS = [
  { name: 'search_notes', description: 'Search note names and text in the vault (limit default 10, max 50).', inputSchema: { type: 'object', properties: { query: { type: 'string', minLength: 1, description: 'Text to look for (case-insensitive).' }, limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 } }, required: ['query'], additionalProperties: false }, annotations: { readOnlyHint: true } },
  { name: 'read_note', description: 'Read one note of the vault by its path.', inputSchema: { type: 'object', properties: { path: str('Note path relative to the vault, e.g. "Projects/plan.md".') }, required: ['path'], additionalProperties: false }, annotations: { readOnlyHint: true } },
  { name: 'create_note', description: 'Create a new note; refuses to overwrite an existing one.', inputSchema: { type: 'object', properties: { path: str('New note path relative to the vault (".md" is added if missing).'), content: str('The note text (Markdown).') }, required: ['path', 'content'], additionalProperties: false }, annotations: { readOnlyHint: false, destructiveHint: false } },
  { name: 'append_note', description: 'Append text to an existing note; refuses if the note is missing.', inputSchema: { type: 'object', properties: { path: str('Existing note path relative to the vault.'), content: str('Text to append.') }, required: ['path', 'content'], additionalProperties: false }, annotations: { readOnlyHint: false, destructiveHint: false } },
  { name: 'list_folder', description: 'List the notes and folders in one vault folder.', inputSchema: { type: 'object', properties: { path: str('Folder path relative to the vault; empty for the vault root.') }, additionalProperties: false }, annotations: { readOnlyHint: true } },
];

/** @param {string} name @param {Record<string, unknown>} args */
function call(name, args) {
  const root = openVault(process.env.OBSIDIAN_VAULT_PATH ?? '');
  const text = (key) => {
    const value = args[key];
    if (typeof value !== 'string') throw new VaultError(`${key} must be a string.`);
    return value;
  };
  switch (name) {
    case 'search_notes': {
      const limit = args.limit === undefined ? 10 : Number(args.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 50) throw new VaultError('limit must be an integer from 1 to 50.');
      const query = text('query');
      if (query === '') throw new VaultError('query must not be empty.');
      return searchNotes(root, query, limit);
    }
    case 'read_note': return readNote(root, text('path'));
    case 'create_note': return createNote(root, text('path'), text('content'));
    case 'append_note': return appendNote(root, text('path'), text('content'));
    case 'list_folder': return listFolder(root, args.path === undefined ? '' : text('path'));
    default: throw new VaultError(`Unknown tool ${name}.`);
  }
}

/** @param {unknown} message */
function send(message) {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

/** @param {any} request */
function handle(request) {
  const { id, method, params } = request;
  if (id === undefined || id === null) return; // a notification (notifications/initialized, cancelled)
  const reply = (result) => send({ jsonrpc: '2.0', id, result });
  const fail = (code, message) => send({ jsonrpc: '2.0', id, error: { code, message } });
  switch (method) {
    case 'initialize': {
      const asked = params?.protocolVersion;
      return reply({ protocolVersion: SUPPORTED_VERSIONS.includes(asked) ? asked : SUPPORTED_VERSIONS[1], capabilities: { tools: {} }, serverInfo: { name: 'fermix-obsidian', version: '1.0.2' } });
    }
    case 'ping': return reply({});
    case 'tools/list': return reply({ tools: TOOLS });
    case 'tools/call': {
      const name = String(params?.name ?? '');
      if (!TOOLS.some((tool) => tool.name === name)) return fail(-32602, `Unknown tool: ${name}`);
      try {
        const result = call(name, params?.arguments && typeof params.arguments === 'object' ? params.arguments : {});
        return reply({ content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result });
      } catch (error) {
        // Refusals are tool results with isError (the model reads them); only a bug is a protocol error.
        const text = error instanceof VaultError ? error.message : `obsidian: ${/** @type {Error} */ (error).message}`;
        return reply({ content: [{ type: 'text', text }], isError: true });
      }
    }
    default: return fail(-32601, `Method not found: ${method}`);
  }
}

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line.trim() === '') return;
  let request;
  try {
    request = JSON.parse(line);
  } catch {
    return send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
  }
  handle(request);
});
lines.on('close', () => process.exit(0));

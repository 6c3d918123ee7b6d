/**
 * Tool-definition pinning. The first definition seen of each outbound MCP tool is pinned (trust on first
 * use); when a server later changes one, the changed tools stay registered but refuse to run until the
 * person answers. They are asked once per server update: the first call of any changed tool parks on an
 * approval card whose reason lists every changed tool of that server and its differences; concurrent
 * calls wait on the same card. once/always re-pins them all, deny keeps them blocked (remembered, so the
 * same update is not asked about again). Unattended calls (jobs, subagents, inbound MCP, piped CLI) are
 * refused with `mcp_tool_changed`. Every decision is one audit record.
 * Decision 0022 explains why the approval queue rather than a new prompt kind.
 */
import type { Capability, ExecutionContext } from '../core/capabilities/capability.js';
import { buildAuditRecord, type AuditSink } from '../core/capabilities/audit-record.js';
import type { ApprovalQueue } from '../core/capabilities/approvals.js';
import { FermixError } from '../core/errors.js';
import type { McpToolDefinition } from './client.js';
import { definitionHash, jsonDifferences, pinnedShape, type PinStore } from './pin-store.js';

export interface DefinitionChange {
  tool: string;
  old_hash: string;
  new_hash: string;
  differences: string[];
  /** The person declined this exact definition earlier. */
  declined: boolean;
}

export interface PinningOptions {
  store: PinStore;
  approvals?: ApprovalQueue;
  audit?: AuditSink;
  now?: () => Date;
}

export interface Pinning {
  /** Records first-seen definitions and returns the changed ones (also kept for `check`). */
  review(server: string, tools: readonly McpToolDefinition[]): DefinitionChange[];
  /** False when `tool` has no unreviewed change, so `check` would let it run without asking anything. */
  needsCheck(server: string, tool: string): boolean;
  /** Throws unless `tool` may run now; may park on an approval card. */
  check(server: string, tool: string, cap: Capability, args: Record<string, unknown>, context: ExecutionContext): Promise<void>;
  changes(server: string): DefinitionChange[];
  /** The window's / CLI's answer without a call: re-pin every changed tool of `server`, or keep them blocked. */
  answer(server: string, decision: 'repin' | 'block'): DefinitionChange[];
  forget(server: string): void;
}

interface ServerChanges {
  changes: Map<string, DefinitionChange>;
  definitions: Map<string, McpToolDefinition>;
  asking: Promise<boolean> | null;
  approvalId: string | null;
}

export function describeChanges(server: string, changes: readonly DefinitionChange[]): string {
  const lines = changes.map((change) => `- ${change.tool}: ${change.differences.join('; ')}`);
  return `The MCP server ${server} changed ${changes.length === 1 ? 'a tool definition' : `${changes.length} tool definitions`} since you last accepted them. Approve to use the new definitions (re-pin), deny to keep them blocked:\n${lines.join('\n')}`;
}

function blocked(server: string, tool: string, unattended: boolean): FermixError {
  return new FermixError({
    code: 'mcp_tool_changed',
    message: unattended
      ? `${tool} of the MCP server ${server} changed its definition, and nobody can approve the change on this unattended path, so it is blocked.`
      : `${tool} of the MCP server ${server} changed its definition and the change was not approved, so it is blocked.`,
    hint: `Review the change with \`fermix mcp tools ${server}\`, then accept it with \`fermix mcp pins ${server} --accept\` (or in the window's MCP section).`,
    data: { server, tool, unattended },
  });
}

export function createPinning(options: PinningOptions): Pinning {
  const now = options.now ?? (() => new Date());
  const servers = new Map<string, ServerChanges>();

  const entry = (server: string): ServerChanges => {
    let found = servers.get(server);
    if (!found) servers.set(server, (found = { changes: new Map(), definitions: new Map(), asking: null, approvalId: null }));
    return found;
  };

  function audit(server: string, cap: Capability | undefined, name: string, context: Pick<ExecutionContext, 'origin' | 'trust' | 'conversationId'>, decision: 'allow' | 'deny', approval: 'once' | 'always' | 'deny' | null, changes: readonly DefinitionChange[]): void {
    if (!options.audit) return;
    for (const change of changes) {
      options.audit.write(buildAuditRecord({
        time: now().getTime(),
        conversation_id: context.conversationId,
        trust: context.trust,
        origin: context.origin,
        name: cap && change.tool === name ? cap.name : `mcp_definition:${server}/${change.tool}`,
        capability: cap && change.tool === name ? cap : undefined,
        decision,
        rule: 'mcp tool-definition pinning',
        approval,
        args: {},
        error_code: decision === 'deny' ? 'mcp_tool_changed' : null,
        notes: { mcp_server: server, mcp_tool: change.tool, mcp_definition: decision === 'allow' ? 'repinned' : 'blocked', old_hash: change.old_hash, new_hash: change.new_hash, differences: change.differences.join('; ').slice(0, 2000) },
      }));
    }
  }

  function apply(server: string, decision: 'repin' | 'block'): DefinitionChange[] {
    const state = entry(server);
    const applied = [...state.changes.values()];
    for (const change of applied) {
      const definition = state.definitions.get(change.tool);
      if (decision === 'repin' && definition) options.store.pin(server, definition, now());
      else options.store.block(server, change.tool, change.new_hash);
    }
    if (decision === 'repin') state.changes.clear();
    else for (const change of applied) change.declined = true;
    return applied;
  }

  return {
    review(server, tools) {
      const pins = options.store.forServer(server);
      const state = entry(server);
      state.changes.clear();
      state.definitions.clear();
      for (const tool of tools) {
        const hash = definitionHash(tool);
        const pin = pins.get(tool.name);
        state.definitions.set(tool.name, tool);
        if (!pin) {
          options.store.pin(server, tool, now());
          continue;
        }
        if (pin.hash === hash) continue;
        state.changes.set(tool.name, {
          tool: tool.name,
          old_hash: pin.hash,
          new_hash: hash,
          differences: jsonDifferences(JSON.parse(pin.definition), pinnedShape(tool)),
          declined: pin.blocked_hash === hash,
        });
      }
      return [...state.changes.values()];
    },
    needsCheck(server, tool) {
      return servers.get(server)?.changes.has(tool) === true;
    },
    async check(server, tool, cap, args, context) {
      const state = servers.get(server);
      const change = state?.changes.get(tool);
      if (!state || !change) return;
      if (change.declined) throw blocked(server, tool, false);
      if (!context.interactive || !options.approvals) {
        audit(server, cap, tool, context, 'deny', null, [change]);
        throw blocked(server, tool, true);
      }
      if (!state.asking) {
        const approvals = options.approvals;
        const pending = [...state.changes.values()].filter((c) => !c.declined);
        const unsubscribe = approvals.subscribe((event) => {
          if (event.type === 'requested' && event.approval.capability === cap.name) state.approvalId = event.approval.id;
        });
        const card = approvals.request({ capability: cap, args, reason: describeChanges(server, pending), origin: context.origin, conversation_id: context.conversationId, signal: context.signal });
        unsubscribe();
        state.asking = card.then(
          (answer) => {
            const accepted = answer !== 'deny';
            apply(server, accepted ? 'repin' : 'block');
            audit(server, cap, tool, context, accepted ? 'allow' : 'deny', answer, pending);
            return accepted;
          },
          (error: unknown) => {
            throw error;
          },
        ).finally(() => {
          state.asking = null;
          state.approvalId = null;
        });
      }
      const accepted = await state.asking;
      if (!accepted || state.changes.get(tool)?.declined) throw blocked(server, tool, false);
    },
    changes(server) {
      return [...(servers.get(server)?.changes.values() ?? [])];
    },
    answer(server, decision) {
      const state = entry(server);
      // A card already waiting is answered too, so the parked call resumes (or fails) with this decision.
      if (state.approvalId && options.approvals) {
        const id = state.approvalId;
        const listed = [...state.changes.values()];
        state.approvalId = null;
        try {
          options.approvals.answer(id, decision === 'repin' ? 'once' : 'deny');
          return listed;
        } catch {
          // answered meanwhile: fall through and apply directly
        }
      }
      const applied = apply(server, decision);
      audit(server, undefined, '', { origin: 'cli', trust: 'operator' }, decision === 'repin' ? 'allow' : 'deny', null, applied);
      return applied;
    },
    forget(server) {
      servers.delete(server);
    },
  };
}

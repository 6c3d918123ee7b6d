/**
 * The one renderer behind tool_help and tool_describe (Fermix: "one renderer, two agent-facing names").
 * It reads the registry from `context.services.registry`; guest filtering of what that registry shows
 * happens where the services are built, not here.
 */
import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import type { Capability, ExecutionContext, Executor, JsonSchema, ToolResult } from '../core/capabilities/capability.js';
import { FermixError } from '../core/errors.js';

/** The slice of the registry these tools need. */
export interface CapabilityLookup {
  find(name: string): Capability | undefined;
}

export const capabilityDocOutput = lazySchema(() =>
  z.object({
    name: z.string(),
    description: z.string(),
    kind: z.string(),
    policy_class: z.string(),
    category: z.string(),
    group: z.string(),
    when_to_use: z.string().optional(),
    requires_setup: z.string().optional(),
    plugin: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).describe('The JSON Schema the model calls the tool with.'),
    required: z.array(z.string()).describe('Names of the required top-level parameters.'),
    output_schema: z.record(z.string(), z.unknown()).optional(),
    examples: z.array(z.string()),
    failure_modes: z.array(z.object({ tag: z.string(), description: z.string() })),
  }),
);

export type CapabilityDoc = z.infer<ReturnType<typeof capabilityDocOutput>>;

function registryFrom(context: ExecutionContext, toolName: string): CapabilityLookup {
  const registry = context.services?.registry as Partial<CapabilityLookup> | undefined;
  if (!registry || typeof registry.find !== 'function') {
    throw new FermixError({
      code: 'registry_unavailable',
      message: `${toolName} cannot reach the capability registry.`,
      hint: 'This is a wiring fault in the daemon: run `fermix doctor`, then restart with `fermix daemon`.',
    });
  }
  return registry as CapabilityLookup;
}

/** Resolves `args.name` to a registered, agent-visible capability or throws missing_name / unknown_capability. */
export function resolveCapability(args: Record<string, unknown>, context: ExecutionContext, toolName: string): Capability {
  const raw = args.name;
  const name = typeof raw === 'string' ? raw.trim() : '';
  if (name === '') {
    throw new FermixError({
      code: 'missing_name',
      message: `${toolName} needs the name of the capability to document.`,
      hint: `Call ${toolName} with {"name": "<tool name>"}, e.g. {"name": "file_read"}.`,
    });
  }
  const capability = registryFrom(context, toolName).find(name);
  // A hidden capability is invisible to the model; documenting it would reveal it.
  if (!capability || capability.hidden_from_agent) {
    throw new FermixError({
      code: 'unknown_capability',
      message: `No capability named "${name}" is registered.`,
      hint: 'Call tool_search with a few words about what the tool should do to find its exact name.',
      data: { name },
    });
  }
  return capability;
}

function withoutDialect(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

function requiredOf(schema: JsonSchema): string[] {
  return Array.isArray(schema.required) ? schema.required.filter((entry): entry is string => typeof entry === 'string') : [];
}

export function capabilityDoc(capability: Capability): CapabilityDoc {
  const { metadata } = capability;
  const doc: CapabilityDoc = {
    name: capability.name,
    description: capability.description,
    kind: capability.kind,
    policy_class: capability.policy_class,
    category: metadata.category,
    group: capability.group,
    parameters: withoutDialect(capability.parameters),
    required: requiredOf(capability.parameters),
    examples: metadata.examples ?? [],
    failure_modes: metadata.failure_modes ?? [],
  };
  if (metadata.when_to_use) doc.when_to_use = metadata.when_to_use;
  if (metadata.requires_setup) doc.requires_setup = metadata.requires_setup;
  if (metadata.plugin) doc.plugin = metadata.plugin;
  if (capability.output_schema) doc.output_schema = withoutDialect(capability.output_schema);
  return doc;
}

function typeLabel(schema: Record<string, unknown>): string {
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((value) => JSON.stringify(value)).join(' | ')}`;
  if (Array.isArray(schema.anyOf)) {
    return (schema.anyOf as Record<string, unknown>[]).map((option) => typeLabel(option)).join(' or ');
  }
  if (Array.isArray(schema.type)) return schema.type.join(' or ');
  if (schema.type === 'array' && schema.items && typeof schema.items === 'object') {
    return `array of ${typeLabel(schema.items as Record<string, unknown>)}`;
  }
  return typeof schema.type === 'string' ? schema.type : 'any';
}

function constraints(schema: Record<string, unknown>): string[] {
  const notes: string[] = [];
  if (schema.default !== undefined) notes.push(`default ${JSON.stringify(schema.default)}`);
  if (schema.minimum !== undefined || schema.maximum !== undefined) {
    notes.push(`range ${schema.minimum ?? '…'}–${schema.maximum ?? '…'}`);
  }
  if (schema.maxLength !== undefined) notes.push(`max ${schema.maxLength} chars`);
  if (schema.minItems !== undefined || schema.maxItems !== undefined) {
    notes.push(`${schema.minItems ?? 0}–${schema.maxItems ?? '…'} items`);
  }
  return notes;
}

function parameterLines(parameters: JsonSchema, required: string[]): string[] {
  const properties = (parameters.properties ?? {}) as Record<string, Record<string, unknown>>;
  const names = Object.keys(properties);
  if (names.length === 0) return ['- none'];
  return names.map((name) => {
    const schema = properties[name];
    const details = [typeLabel(schema), required.includes(name) ? 'required' : 'optional', ...constraints(schema)];
    const description = typeof schema.description === 'string' ? ` — ${schema.description}` : '';
    return `- \`${name}\` (${details.join(', ')})${description}`;
  });
}

/** Markdown documentation of one capability, for the model and for people. */
export function renderCapabilityDoc(doc: CapabilityDoc): string {
  const lines = [
    `# ${doc.name}`,
    '',
    doc.description,
    '',
    `Kind: ${doc.kind} · Policy class: ${doc.policy_class} · Category: ${doc.category} · Group: ${doc.group}`,
  ];
  if (doc.plugin) lines.push(`Plugin: ${doc.plugin}`);
  if (doc.when_to_use) lines.push(`When to use: ${doc.when_to_use}`);
  if (doc.requires_setup) lines.push(`Requires setup: ${doc.requires_setup}`);
  lines.push('', '## Parameters', ...parameterLines(doc.parameters, doc.required));
  lines.push('', `Required: ${doc.required.length > 0 ? doc.required.join(', ') : 'none'}`);
  lines.push('', 'JSON Schema:', '```json', JSON.stringify(doc.parameters, null, 2), '```');
  if (doc.output_schema) {
    lines.push('', '## Result', '```json', JSON.stringify(doc.output_schema, null, 2), '```');
  }
  lines.push('', '## Examples', ...(doc.examples.length > 0 ? doc.examples.map((example) => `- \`${example}\``) : ['- none']));
  lines.push(
    '',
    '## Failure modes',
    ...(doc.failure_modes.length > 0
      ? doc.failure_modes.map((mode) => `- \`${mode.tag}\` — ${mode.description}`)
      : ['- none']),
  );
  return lines.join('\n');
}

/** Executor shared by tool_help and tool_describe. */
export function documentationExecutor(toolName: string): Executor {
  return async (args, context): Promise<ToolResult> => {
    const doc = capabilityDoc(resolveCapability(args, context, toolName));
    return { text: renderCapabilityDoc(doc), data: doc };
  };
}

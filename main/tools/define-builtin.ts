/**
 * `defineBuiltin` turns a short tool spec into a full Capability, so each tool file holds only what is
 * particular to that tool: its zod input schema, texts, class, category and failure tags. The zod schemas
 * come as getters (lazy-schema.ts) and are built on first use, not when the tool module loads.
 *
 * Defaults filled here (and nowhere else): kind `builtin`, hidden_from_agent false, group from
 * groupFor(name, category), audit_behavior `full`, is_stateful false, scope_requirements [].
 */
import { z } from 'zod';
import type {
  AuditBehavior,
  Capability,
  CapabilityMetadata,
  Executor,
  FailureMode,
  JsonSchema,
  PolicyClass,
} from '../core/capabilities/capability.js';
import { groupFor } from '../core/capabilities/groups.js';
import type { Scope } from './scopes.js';

/** One example call: the arguments, and a few words on what it is for. */
export interface BuiltinExample {
  args: Record<string, unknown>;
  note: string;
}

export interface BuiltinSpec {
  name: string;
  description: string;
  policy_class: PolicyClass;
  category: string;
  /** Builds (once) the zod input schema: a `lazySchema` getter. */
  input: () => z.ZodObject;
  /** Shape of the structured result (the JSON text / ToolResult.data), when the tool defines one; a `lazySchema` getter. */
  output?: () => z.ZodType;
  when_to_use: string;
  examples: BuiltinExample[];
  failure_modes: FailureMode[];
  scope_requirements?: Scope[];
  audit_behavior?: AuditBehavior;
  is_stateful?: boolean;
  executor?: Executor;
  timeout_ms?: number;
  /** Extra metadata (requires_setup, secret_fields, deferral_bridge, …). */
  metadata?: Omit<Partial<CapabilityMetadata>, 'category' | 'when_to_use' | 'examples' | 'failure_modes'>;
}

/** Rendered as `<tool> <json args>  # <note>`; the test parses it back and validates the args. */
export const EXAMPLE_NOTE_SEPARATOR = '  # ';

export function renderExample(name: string, example: BuiltinExample): string {
  return `${name} ${JSON.stringify(example.args)}${EXAMPLE_NOTE_SEPARATOR}${example.note}`;
}

/**
 * zod → JSON Schema for the provider and the invoke boundary. `io: 'input'` so fields with a default stay
 * optional. Input objects are strict (`additionalProperties: false`, nested ones too): an unknown key is
 * refused at the boundary with an error naming it, so the model corrects the call instead of the key
 * being silently dropped by the executor's parse — or stored whole in the audit (a 31 MB `pad`).
 * z.int() emits ±2^53−1 bounds and records emit `propertyNames: {type: string}`: both say nothing a
 * JSON object does not already say, and cost tokens on every request, so they are dropped.
 */
export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'input'): JsonSchema {
  return z.toJSONSchema(schema, {
    io,
    override: (context) => {
      const node = context.jsonSchema as Record<string, unknown>;
      if (node.minimum === Number.MIN_SAFE_INTEGER) delete node.minimum;
      if (node.maximum === Number.MAX_SAFE_INTEGER) delete node.maximum;
      const names = node.propertyNames as Record<string, unknown> | undefined;
      if (names && names.type === 'string' && Object.keys(names).length === 1) delete node.propertyNames;
      if (io === 'input' && node.type === 'object' && node.properties !== undefined && !('additionalProperties' in node)) node.additionalProperties = false;
    },
  }) as JsonSchema;
}

/**
 * The JSON Schemas are computed on first read, not when the tool module loads: turning ~38 zod schemas
 * into JSON Schema cost ~25 ms of every daemon start, and most starts never send a schema anywhere
 * before the first turn. The registry keeps the getter (registry.ts freezeCapability). The zod schemas
 * behind them are built here too, on the same first read (building them at module load was another
 * ~12-15 ms of every start).
 */
export function defineBuiltin(spec: BuiltinSpec): Capability {
  let parameters: JsonSchema | undefined;
  const capability: Capability = {
    name: spec.name,
    description: spec.description,
    get parameters() {
      return (parameters ??= toJsonSchema(spec.input()));
    },
    kind: 'builtin',
    hidden_from_agent: false,
    policy_class: spec.policy_class,
    metadata: {
      ...spec.metadata,
      category: spec.category,
      when_to_use: spec.when_to_use,
      examples: spec.examples.map((example) => renderExample(spec.name, example)),
      failure_modes: spec.failure_modes,
    },
    group: groupFor(spec.name, spec.category),
    scope_requirements: spec.scope_requirements ?? [],
    audit_behavior: spec.audit_behavior ?? 'full',
    is_stateful: spec.is_stateful ?? false,
  };
  if (spec.output) {
    const output = spec.output;
    let outputSchema: JsonSchema | undefined;
    Object.defineProperty(capability, 'output_schema', { get: () => (outputSchema ??= toJsonSchema(output(), 'output')), enumerable: true, configurable: true });
  }
  if (spec.executor) capability.executor = spec.executor;
  if (spec.timeout_ms !== undefined) capability.timeout_ms = spec.timeout_ms;
  return capability;
}

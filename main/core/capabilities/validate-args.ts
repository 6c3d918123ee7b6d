/**
 * Argument validation against a capability's JSON Schema with ajv. Compiled validators are cached per
 * registered capability OBJECT (a WeakMap): the registry stores a fresh frozen object on every
 * (re)registration, so object identity is the capability's version — a re-registered MCP tool with a
 * new schema gets a new validator, and dropped ones are garbage-collected.
 *
 * zod v4's `z.toJSONSchema` emits draft 2020-12 while many MCP servers still send draft-07, so the
 * ajv class is picked by `$schema` (no `$schema` → 2020-12, what our own tools produce).
 */
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { FermixError } from '../errors.js';
import type { Capability } from './capability.js';

/**
 * Strict inputs for every capability, whatever its source: a top-level object schema that does not say
 * what to do with unknown properties refuses them (unknown extras were stored whole in the audit: a
 * 31 MB `pad` argument grew the database by 31 MB a call). 2020-12 schemas get `unevaluatedProperties:
 * false`, which sees properties declared inside allOf/anyOf/oneOf/$ref; draft-07 has no such keyword,
 * so there `additionalProperties: false` is added only when no composition keyword could declare more.
 * A schema that says `additionalProperties` (true or a schema), `patternProperties` or
 * `unevaluatedProperties` itself is left as its author wrote it.
 */
export function strictSchema(schema: Record<string, unknown>, legacy: boolean): Record<string, unknown> {
  const saysObject = schema.type === 'object' || (schema.type === undefined && schema.properties !== undefined);
  if (!saysObject) return schema;
  if ('additionalProperties' in schema || 'patternProperties' in schema || 'unevaluatedProperties' in schema) return schema;
  // A name listed in `required` but missing from `properties` (a common MCP slip) is still accepted.
  const declared = schema.properties !== null && typeof schema.properties === 'object' ? (schema.properties as Record<string, unknown>) : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string' && !(name in declared)) : [];
  const properties = required.length === 0 ? schema.properties : { ...Object.fromEntries(required.map((name) => [name, true])), ...declared };
  const withRequired = properties === undefined ? schema : { ...schema, properties };
  if (!legacy) return { ...withRequired, unevaluatedProperties: false };
  const composed = ['allOf', 'anyOf', 'oneOf', '$ref', 'if', 'dependentSchemas', 'dependencies'].some((keyword) => keyword in schema);
  return composed ? schema : { ...withRequired, additionalProperties: false };
}

/** The argument names a capability accepts (top-level `properties`), for the "accepted: …" hint. */
function acceptedNames(cap: Capability): string[] {
  const properties = cap.parameters.properties;
  return properties !== null && typeof properties === 'object' ? Object.keys(properties as Record<string, unknown>) : [];
}

export interface ArgumentProblem {
  field: string;
  problem: string;
}

export interface ArgsValidator {
  /**
   * Loads ajv (~280 KB of JavaScript with fast-uri) on first use instead of at daemon start-up:
   * the first tool call comes a model round trip after start, and start-up is what people wait for.
   */
  ready(): Promise<void>;
  /** Throws `invalid_arguments` naming the field and what was expected. Call after `ready()`. */
  validate(cap: Capability, args: unknown): asserts args is Record<string, unknown>;
}

interface AjvModules {
  Ajv: new (options: typeof AJV_OPTIONS) => Ajv;
  Ajv2020: new (options: typeof AJV_OPTIONS) => Ajv2020;
}

// strict: false — tool schemas come from third parties (MCP servers) with vendor keywords; refusing
// them would make a whole server unusable. validateFormats: false — ajv-formats is not a dependency,
// so `format` is documentation only. logger: false — common code has no console of its own.
const AJV_OPTIONS = { strict: false, allErrors: true, validateFormats: false, logger: false } as const;

function fieldOf(error: ErrorObject): string {
  const base = error.instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required' && typeof params.missingProperty === 'string') base.push(params.missingProperty);
  if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') base.push(params.additionalProperty);
  if (error.keyword === 'unevaluatedProperties' && typeof params.unevaluatedProperty === 'string') base.push(params.unevaluatedProperty);
  return base.length === 0 ? '(arguments)' : base.join('.');
}

function problemOf(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return 'is not an accepted argument';
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    default:
      return error.message ?? `fails ${error.keyword}`;
  }
}

export function describeProblems(errors: readonly ErrorObject[]): ArgumentProblem[] {
  const seen = new Set<string>();
  const out: ArgumentProblem[] = [];
  for (const error of errors) {
    // anyOf/oneOf add a summary error after their branches; the branches say more.
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf' || error.keyword === 'if') continue;
    const problem = { field: fieldOf(error), problem: problemOf(error) };
    const key = `${problem.field} ${problem.problem}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(problem);
  }
  return out.length > 0 ? out : [{ field: '(arguments)', problem: 'do not match the schema' }];
}

export function createArgsValidator(): ArgsValidator {
  let ajv07: Ajv | undefined;
  let ajv2020: Ajv2020 | undefined;
  let modules: AjvModules | undefined;
  let loading: Promise<void> | undefined;
  const cache = new WeakMap<Capability, ValidateFunction>();

  function compile(cap: Capability): ValidateFunction {
    const cached = cache.get(cap);
    if (cached !== undefined) return cached;
    const schemaId = typeof cap.parameters.$schema === 'string' ? cap.parameters.$schema : '';
    const legacy = /draft-0[467]/.test(schemaId);
    let fn: ValidateFunction;
    try {
      if (modules === undefined) throw new Error('the validator was used before ready() resolved');
      const loaded = modules;
      const ajv = legacy ? (ajv07 ??= new loaded.Ajv(AJV_OPTIONS)) : (ajv2020 ??= new loaded.Ajv2020(AJV_OPTIONS));
      // draft-04/06 ids are not registered meta-schemas (ajv 8); the keywords tool schemas use are the same.
      const { $schema: _declared, ...withoutId } = cap.parameters;
      fn = ajv.compile(strictSchema(legacy ? withoutId : cap.parameters, legacy));
    } catch (cause) {
      throw new FermixError({
        code: 'invalid_capability',
        message: `The parameter schema of ${cap.name} is not a valid JSON Schema.`,
        hint: cap.kind === 'mcp' ? `Report it to the MCP server's maintainers, or hide the tool with hidden_from_agent = true in [mcp.servers.<server>.tools.${cap.name}].` : 'Fix the tool definition (its zod schema) and rebuild.',
        data: { name: cap.name, detail: cause instanceof Error ? cause.message : String(cause) },
        cause,
      });
    }
    cache.set(cap, fn);
    return fn;
  }

  return {
    ready() {
      loading ??= Promise.all([import('ajv'), import('ajv/dist/2020.js')]).then(([draft07, draft2020]) => {
        // CommonJS under ESM interop: the class may be the named export, the default, or the default's property.
        const pick = (mod: unknown, name: string): unknown => {
          const ns = mod as Record<string, unknown> & { default?: Record<string, unknown> };
          return typeof ns[name] === 'function' ? ns[name] : typeof ns.default?.[name] === 'function' ? ns.default[name] : ns.default;
        };
        modules = { Ajv: pick(draft07, 'Ajv'), Ajv2020: pick(draft2020, 'Ajv2020') } as AjvModules;
      });
      return loading;
    },
    validate(cap, args): asserts args is Record<string, unknown> {
      if (args === null || typeof args !== 'object' || Array.isArray(args)) {
        throw new FermixError({
          code: 'invalid_arguments',
          message: `Invalid arguments for ${cap.name}: the arguments must be a JSON object, got ${args === null ? 'null' : Array.isArray(args) ? 'an array' : typeof args}.`,
          hint: `Call ${cap.name} again with an object of named arguments (tool_describe ${cap.name} shows them).`,
          data: { name: cap.name, problems: [{ field: '(arguments)', problem: 'must be object' }] },
        });
      }
      const fn = compile(cap);
      if (fn(args)) return;
      const problems = describeProblems(fn.errors ?? []);
      // Field names come from the caller: cap them, so a 1 MB property name is not echoed back whole.
      const listed = problems.slice(0, 5).map((p) => `\`${p.field.slice(0, 64)}\` ${p.problem}`).join('; ');
      const unknown = problems.some((p) => p.problem === 'is not an accepted argument');
      const accepted = acceptedNames(cap);
      throw new FermixError({
        code: 'invalid_arguments',
        message: `Invalid arguments for ${cap.name}: ${listed}.`,
        hint: unknown && accepted.length > 0
          ? `Call ${cap.name} again with only its arguments: ${accepted.join(', ')} (tool_describe ${cap.name} shows them).`
          : `Call ${cap.name} again with arguments matching its schema (tool_describe ${cap.name} shows it).`,
        data: { name: cap.name, problems: problems.map((p) => ({ field: p.field.slice(0, 64), problem: p.problem })) },
      });
    },
  };
}

/**
 * Argument validation against a capability's JSON Schema with ajv. Compiled validators are cached per
 * registered capability OBJECT (a WeakMap): the registry stores a fresh frozen object on every
 * (re)registration, so object identity is the capability's version — a re-registered MCP tool with a
 * new schema gets a new validator, and dropped ones are garbage-collected.
 *
 * zod v4's `z.toJSONSchema` emits draft 2020-12 while many MCP servers still send draft-07, so the
 * ajv class is picked by `$schema` (no `$schema` → 2020-12, what our own tools produce).
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { FermixError } from '../errors.js';
import type { Capability } from './capability.js';

export interface ArgumentProblem {
  field: string;
  problem: string;
}

export interface ArgsValidator {
  /** Throws `invalid_arguments` naming the field and what was expected. */
  validate(cap: Capability, args: unknown): asserts args is Record<string, unknown>;
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
  return base.length === 0 ? '(arguments)' : base.join('.');
}

function problemOf(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
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
  const cache = new WeakMap<Capability, ValidateFunction>();

  function compile(cap: Capability): ValidateFunction {
    const cached = cache.get(cap);
    if (cached !== undefined) return cached;
    const schemaId = typeof cap.parameters.$schema === 'string' ? cap.parameters.$schema : '';
    const legacy = /draft-0[467]/.test(schemaId);
    let fn: ValidateFunction;
    try {
      const ajv = legacy ? (ajv07 ??= new Ajv(AJV_OPTIONS)) : (ajv2020 ??= new Ajv2020(AJV_OPTIONS));
      // draft-04/06 ids are not registered meta-schemas (ajv 8); the keywords tool schemas use are the same.
      const { $schema: _declared, ...withoutId } = cap.parameters;
      fn = ajv.compile(legacy ? withoutId : cap.parameters);
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
      const listed = problems.slice(0, 5).map((p) => `\`${p.field}\` ${p.problem}`).join('; ');
      throw new FermixError({
        code: 'invalid_arguments',
        message: `Invalid arguments for ${cap.name}: ${listed}.`,
        hint: `Call ${cap.name} again with arguments matching its schema (tool_describe ${cap.name} shows it).`,
        data: { name: cap.name, problems },
      });
    },
  };
}

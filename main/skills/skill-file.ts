/**
 * SKILL.md: a `---` frontmatter block, then the body (the skill's system prompt). Reference §2.4
 * "Frontmatter fields". The frontmatter is the small YAML subset skills use — `key: value` with plain,
 * quoted, number and boolean scalars, inline `[a, b]` lists and `- item` block lists — read by hand so
 * no YAML dependency (and none of YAML's surprises: anchors, tags, `no` → false) enters the daemon.
 * Anything outside the subset is a load error naming the line, never a guess.
 */
import { FermixError } from '../core/errors.js';
import { POLICY_CLASSES, type PolicyClass } from '../core/capabilities/capability.js';
import { SKILL_NAME_PATTERN } from '../tools/skill-name.js';

export const SKILL_PROVIDERS = ['openai', 'openai_codex', 'anthropic', 'xai', 'openrouter', 'together', 'groq'] as const;
/** Reference §2.4 / §6: skill defaults. */
export const DEFAULT_MAX_ITERATIONS = 25;
export const DEFAULT_TIMEOUT_SECONDS = 300;
export const MAX_BODY_BYTES = 65_536;

export interface SkillDefinition {
  name: string;
  description: string;
  body: string;
  /** undefined = the trust default; [] = no tools; a list = exact allowlist (still under policy and trust). */
  allowed_tools?: string[];
  policy?: PolicyClass[];
  role: 'main' | 'sub';
  max_iterations: number;
  timeout_seconds: number;
  model?: string;
  provider?: string;
  temperature?: number;
}

type Scalar = string | number | boolean;
type Value = Scalar | Scalar[];

function malformed(file: string, message: string): FermixError {
  return new FermixError({ code: 'invalid_skill', message: `${file}: ${message}`, hint: 'Fix the SKILL.md frontmatter, then run `fermix skills reload` (or the skill_reload tool).', data: { file } });
}

function scalar(raw: string): Scalar {
  const text = raw.trim();
  if ((text.startsWith('"') && text.endsWith('"') && text.length >= 2) || (text.startsWith("'") && text.endsWith("'") && text.length >= 2)) {
    return text.startsWith('"') ? (JSON.parse(text) as string) : text.slice(1, -1).replace(/''/g, "'");
  }
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  return text;
}

function inlineList(raw: string, file: string, line: number): Scalar[] {
  const inner = raw.trim().slice(1, -1).trim();
  if (inner === '') return [];
  if (/[[\]{}]/.test(inner)) throw malformed(file, `line ${line}: nested lists are not supported.`);
  return inner.split(',').map((part) => scalar(part));
}

/** `---\n…\n---\nbody` → fields and body. */
export function splitSkillFile(text: string, file: string): { fields: Record<string, Value>; body: string } {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  if (!normalized.startsWith('---\n')) throw malformed(file, 'it does not start with a --- frontmatter block.');
  const end = normalized.indexOf('\n---', 4);
  if (end === -1) throw malformed(file, 'its frontmatter block is not closed with ---.');
  const lines = normalized.slice(4, end).split('\n');
  const body = normalized.slice(end + 4).replace(/^[^\n]*\n/, '').trim();
  const fields: Record<string, Value> = {};
  let listKey: string | null = null;
  lines.forEach((line, index) => {
    const number = index + 2;
    if (line.trim() === '' || line.trim().startsWith('#')) return;
    const item = /^\s+-\s*(.*)$/.exec(line) ?? /^-\s+(.*)$/.exec(line);
    if (item && listKey !== null) {
      (fields[listKey] as Scalar[]).push(scalar(item[1]));
      return;
    }
    const pair = /^([A-Za-z_][A-Za-z0-9_]*):(.*)$/.exec(line);
    if (!pair) throw malformed(file, `line ${number} is not "key: value".`);
    const [, key, rest] = pair;
    if (key in fields) throw malformed(file, `line ${number}: ${key} is set twice.`);
    listKey = null;
    const value = rest.trim();
    if (value === '') {
      fields[key] = [];
      listKey = key;
    } else if (value.startsWith('[')) {
      if (!value.endsWith(']')) throw malformed(file, `line ${number}: the list is not closed with ].`);
      fields[key] = inlineList(value, file, number);
    } else {
      fields[key] = scalar(value);
    }
  });
  return { fields, body };
}

const KNOWN = new Set(['name', 'description', 'allowed_tools', 'policy', 'role', 'max_iterations', 'timeout_seconds', 'model', 'provider', 'temperature', 'persistent', 'capabilities', 'parent', 'delegates_to']);

function positiveInt(value: Value | undefined, fallback: number, key: string, file: string, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) throw malformed(file, `${key} must be a whole number from 1 to ${max}.`);
  return value;
}

function stringList(value: Value, key: string, file: string): string[] {
  const list = Array.isArray(value) ? value : [value];
  if (!list.every((each) => typeof each === 'string' && each !== '')) throw malformed(file, `${key} must be a list of names.`);
  return list as string[];
}

/** Fields → a checked definition (AgentDefinition.new): unknown policy classes and bad names raise. */
export function parseSkill(text: string, file: string): SkillDefinition {
  const { fields, body } = splitSkillFile(text, file);
  for (const key of Object.keys(fields)) if (!KNOWN.has(key)) throw malformed(file, `unknown frontmatter key ${key}.`);
  const name = fields.name;
  if (typeof name !== 'string' || !SKILL_NAME_PATTERN.test(name)) throw malformed(file, 'name must match ^[a-zA-Z0-9_-]{1,64}$.');
  const description = fields.description;
  if (typeof description !== 'string' || description.trim() === '') throw malformed(file, 'description is required.');
  if (body === '') throw malformed(file, 'the body (the skill instructions) is empty.');
  if (Buffer.byteLength(body) > MAX_BODY_BYTES) throw malformed(file, `the body exceeds ${MAX_BODY_BYTES} bytes.`);
  const skill: SkillDefinition = {
    name,
    description: description.trim(),
    body,
    role: 'sub',
    max_iterations: positiveInt(fields.max_iterations, DEFAULT_MAX_ITERATIONS, 'max_iterations', file, 100),
    timeout_seconds: positiveInt(fields.timeout_seconds, DEFAULT_TIMEOUT_SECONDS, 'timeout_seconds', file, 3_600),
  };
  if (fields.allowed_tools !== undefined) skill.allowed_tools = stringList(fields.allowed_tools, 'allowed_tools', file);
  if (fields.policy !== undefined) {
    const classes = stringList(fields.policy, 'policy', file);
    for (const each of classes) {
      if (!(POLICY_CLASSES as readonly string[]).includes(each) || each === 'gui_control') throw malformed(file, `policy lists unknown class ${each} (use read_only, read_write, exec, network, external_api).`);
    }
    skill.policy = classes as PolicyClass[];
  }
  if (fields.role !== undefined) {
    if (fields.role !== 'main' && fields.role !== 'sub') throw malformed(file, 'role must be main or sub.');
    skill.role = fields.role;
  }
  if (fields.model !== undefined) {
    if (typeof fields.model !== 'string') throw malformed(file, 'model must be a model id.');
    skill.model = fields.model;
  }
  if (fields.provider !== undefined) {
    if (typeof fields.provider !== 'string' || !(SKILL_PROVIDERS as readonly string[]).includes(fields.provider)) throw malformed(file, `provider must be one of ${SKILL_PROVIDERS.join(', ')}.`);
    skill.provider = fields.provider;
  }
  if (fields.temperature !== undefined) {
    if (typeof fields.temperature !== 'number' || fields.temperature < 0 || fields.temperature > 2) throw malformed(file, 'temperature must be a number from 0 to 2.');
    skill.temperature = fields.temperature;
  }
  return skill;
}

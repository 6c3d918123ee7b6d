/**
 * InjectionScan (reference §2.7 "Prompt injection of memory"): recalled memory that reads like an order
 * to the model is flagged — logged once at warn and traced as [:fermix,:security,:injection_scan] — and
 * still kept as data: the fence (prompt.ts) is the defence, the flag is for the person to look at. A
 * small rule table, not a library: no maintained prompt-injection classifier fits a Node 20 daemon
 * without a model download (STACK.md names none), and these few shapes are the ones that matter inside
 * a fence: instructions to ignore earlier ones, role markers, a fence-closing tag, tool-call JSON and
 * invisible characters.
 */

export const INJECTION_RULES = ['ignore_instructions', 'role_marker', 'fence_close', 'tool_call_json', 'hidden_characters'] as const;
export type InjectionRule = (typeof INJECTION_RULES)[number];

/**
 * Characters a person cannot see but a model reads: Unicode tag characters (U+E0000–E007F, "ASCII
 * smuggling"), bidirectional controls (U+202A–202E, U+2066–2069, U+200E/F) and zero-width ones.
 */
export const HIDDEN_CHARACTERS = /[\u{E0000}-\u{E007F}\u202A-\u202E\u2066-\u2069\u200B-\u200F\u2060\uFEFF]/gu;

const RULES: { rule: InjectionRule; pattern: RegExp }[] = [
  { rule: 'ignore_instructions', pattern: /\b(ignore|disregard|forget|override)\b[^.\n]{0,40}\b(previous|prior|above|earlier|all|any|your|the)\b[^.\n]{0,30}\b(instructions?|rules|prompts?|directions|guidelines|messages)\b/i },
  { rule: 'ignore_instructions', pattern: /\b(new instructions|you are now|from now on,? you (are|must|will))\b/i },
  { rule: 'role_marker', pattern: /(^|[\n.;]\s*|^\s*)(system|assistant|developer)\s*:/im },
  { rule: 'role_marker', pattern: /<\|?\s*\/?\s*(system|assistant|developer|im_start|im_end|user)\s*\|?>/i },
  { rule: 'fence_close', pattern: /<\s*\/?\s*memory-context\s*>/i },
  { rule: 'tool_call_json', pattern: /\{\s*"(tool_calls?|function_call|function|tool|name|arguments|tool_use)"\s*:/i },
];

/** The rules `text` trips, each once, in table order. */
export function scanForInjection(text: string): InjectionRule[] {
  const found = new Set<InjectionRule>();
  for (const { rule, pattern } of RULES) if (pattern.test(text)) found.add(rule);
  if (new RegExp(HIDDEN_CHARACTERS.source, 'u').test(text)) found.add('hidden_characters');
  return INJECTION_RULES.filter((rule) => found.has(rule));
}

/** Invisible characters made visible (`⟦U+E0041⟧`), so the model and the person read the same thing. */
export function revealHidden(text: string): string {
  return text.replace(HIDDEN_CHARACTERS, (char) => `⟦U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟧`);
}

export interface InjectionFlag {
  memory_id: number;
  key: string;
  scope: string;
  rules: InjectionRule[];
}

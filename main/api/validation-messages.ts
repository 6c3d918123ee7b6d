/**
 * Plain sentences for refused API input. The dispatcher used to put zod's text in front of people
 * (Settings → Voice showed "Invalid input for settings.update: transcription.base_url: Invalid URL.");
 * the window and the CLI show `message` as it is, so it must read as a sentence about the field they
 * typed into. Programs keep what they need in `data`: the field path and zod's own wording per issue.
 */
import type { z } from 'zod';

/** What a field is called where people edit it, by its path (array indexes dropped). */
const FIELD_LABELS: Record<string, string> = {
  'transcription.base_url': 'transcription server URL',
  'transcription.model': 'transcription model',
  api_key: 'API key',
  base_url: 'server URL',
  model: 'model',
  name: 'name',
  value: 'value',
  permission_mode: 'permission mode',
  sandbox_mode: 'sandbox mode',
  path: 'folder path',
};

/** What a good value looks like, where a bare "not valid" would leave people guessing. */
const URL_EXAMPLES: Record<string, string> = {
  'transcription.base_url': 'http(s)://host:port/v1',
  base_url: 'http(s)://host:port/v1',
};

export interface InputIssue {
  /** The field path as programs address it (`transcription.base_url`), or `(input)` for the whole input. */
  field: string;
  /** zod's own wording, for programs and logs. */
  problem: string;
  /** The sentence people see. */
  sentence: string;
}

function fieldPath(issue: z.core.$ZodIssue): string {
  return issue.path.length ? issue.path.map(String).join('.') : '(input)';
}

/** `transcription.base_url` → "transcription server URL"; unknown paths read their last words ("max file mb"). */
export function fieldLabel(field: string): string {
  const named = field.split('.').filter((part) => !/^\d+$/.test(part));
  for (let start = 0; start < named.length; start += 1) {
    const label = FIELD_LABELS[named.slice(start).join('.')];
    if (label) return label;
  }
  const last = named.at(-1) ?? 'input';
  return last.replace(/[_-]+/g, ' ').replace(/\burl\b/gi, 'URL').replace(/\bid\b/gi, 'ID');
}

function urlExample(field: string): string | undefined {
  const named = field.split('.');
  for (let start = 0; start < named.length; start += 1) {
    const example = URL_EXAMPLES[named.slice(start).join('.')];
    if (example) return example;
  }
  return undefined;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** One sentence (no trailing period) for one zod issue. */
function sentenceFor(issue: z.core.$ZodIssue, field: string): string {
  const label = fieldLabel(field);
  const the = field === '(input)' ? 'The request' : `The ${label}`;
  switch (issue.code) {
    case 'invalid_format': {
      if (issue.format === 'url') {
        const example = urlExample(field);
        return `${the} is not a valid URL — use ${example ?? 'http(s)://host:port/path'}`;
      }
      // A regex with its own message ('letters, digits, _ and - (at most 64)') says what is allowed.
      const custom = issue.message && !/^Invalid/.test(issue.message) ? `: use ${issue.message}` : '';
      return `${the} is not in the expected form${custom}`;
    }
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) <= 1) return `${the} is empty — enter a value`;
      if (issue.origin === 'string') return `${the} is too short — use at least ${issue.minimum} characters`;
      if (issue.origin === 'array') return `${the} needs at least ${issue.minimum} item(s)`;
      return `${the} must be at least ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'string') return `${the} is too long — use at most ${issue.maximum} characters`;
      if (issue.origin === 'array') return `${the} has too many items — at most ${issue.maximum}`;
      return `${the} must be at most ${issue.maximum}`;
    case 'invalid_value':
      return `${the} must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'invalid_type':
      if (/received undefined/.test(issue.message)) return `${the} is missing`;
      return `${the} must be ${issue.expected === 'array' || issue.expected === 'object' ? 'an' : 'a'} ${issue.expected}`;
    case 'unrecognized_keys': {
      const where = field === '(input)' ? 'this request' : `the ${label}`;
      // The keys are client input: at most three, each cut to 40 characters, so the message stays one sentence.
      const shown = issue.keys.slice(0, 3).map((key) => `"${key.length > 40 ? `${key.slice(0, 40)}…` : key}"`);
      const more = issue.keys.length > 3 ? ` and ${issue.keys.length - 3} more` : '';
      return `${capitalised(shown.join(', '))}${more} ${issue.keys.length === 1 ? 'is' : 'are'} not a setting ${where} accepts`;
    }
    default:
      return `${the} is not valid (${issue.message})`;
  }
}

export function describeIssues(issues: readonly z.core.$ZodIssue[]): InputIssue[] {
  return issues.map((issue) => {
    const field = fieldPath(issue);
    return { field, problem: issue.message, sentence: sentenceFor(issue, field) };
  });
}

/**
 * The message for a refused request: the first field's sentence (the one people fix first), with a
 * count of the others so nobody fixes one field and is surprised by the next.
 */
export function invalidInputMessage(issues: readonly InputIssue[]): string {
  const first = issues[0];
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more field${issues.length > 2 ? 's' : ''} to correct)` : '';
  return `${first.sentence}${more}.`;
}

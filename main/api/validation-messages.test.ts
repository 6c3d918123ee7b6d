// Refused input reads as a sentence about the field people typed into (issue 15: Settings → Voice showed
// "Invalid input for settings.update: transcription.base_url: Invalid URL."), while programs keep the
// code, the field path and zod's wording. Real contract schemas through the real dispatcher.
import { describe, expect, it } from 'vitest';
import { createDispatcher } from './dispatcher.js';
import { fieldLabel } from './validation-messages.js';

const context = { transport: 'in-process' as const, trust: 'operator' as const };
const never = () => {
  throw new Error('the handler must not run for refused input');
};
const dispatcher = createDispatcher({ 'settings.update': never, 'providers.add': never, 'settings.set_transcription_key': never });

async function refusal(method: string, input: unknown) {
  const answer = await dispatcher.dispatch(method, input, context);
  if (answer.ok) throw new Error(`${method} accepted ${JSON.stringify(input)}`);
  return answer.error as { code: string; message: string; hint: string; data: { method: string; field: string; issues: { field: string; problem: string }[] } };
}

describe('validation messages people see', () => {
  it('a bad transcription URL is one plain sentence with an example, and keeps code and path for programs', async () => {
    const error = await refusal('settings.update', { transcription: { base_url: 'localhost:9000' } });
    expect(error.code).toBe('invalid_input');
    expect(error.message).toBe('The transcription server URL is not a valid URL — use http(s)://host:port/v1.');
    expect(error.hint).toBe('Nothing was saved; correct it and try again.');
    expect(error.data.field).toBe('transcription.base_url');
    expect(error.data.issues[0]).toEqual({ field: 'transcription.base_url', problem: 'Invalid URL' });
    expect(error.message).not.toMatch(/settings\.update|Invalid input/);
  });

  it('empty, unknown-option, missing and extra fields each say what to do', async () => {
    expect((await refusal('settings.set_transcription_key', { api_key: '  ' })).message).toBe('The API key is empty — enter a value.');
    expect((await refusal('settings.update', { permission_mode: 'sometimes' })).message).toBe('The permission mode must be one of "ask", "auto", "read_only".');
    const missing = await refusal('providers.add', { type: 'openai', model: 'gpt-5' });
    expect(missing.message).toBe('The name is missing.');
    const several = await refusal('providers.add', { name: 'bad name!', type: 'openai', model: '' });
    expect(several.message).toBe('The name is not in the expected form: use letters, digits, _ and - (at most 64) (and 1 more field to correct).');
    const extra = await refusal('settings.update', { transcription: { base_url: null, langauge: 'en' } });
    expect(extra.message).toBe('"langauge" is not a setting the transcription accepts.');
    for (const error of [missing, several, extra]) expect(error.message).not.toMatch(/Too small|expected string|Unrecognized key/);
    // Unknown keys are client input: a flood of long ones still makes one short sentence.
    const flood = Object.fromEntries(Array.from({ length: 500 }, (_, index) => [`${'k'.repeat(200)}${index}`, 1]));
    const flooded = await refusal('settings.update', flood);
    expect(flooded.message.length).toBeLessThan(250);
    expect(flooded.message).toContain('and 497 more are not a setting this request accepts.');
  });

  it('labels unknown fields from their own words', () => {
    expect(fieldLabel('transcription.max_file_mb')).toBe('max file mb');
    expect(fieldLabel('providers.0.base_url')).toBe('server URL');
    expect(fieldLabel('job_id')).toBe('job ID');
  });
});

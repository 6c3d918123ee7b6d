import { describe, expect, it } from 'vitest';
import { messageText, parseSlashCommand } from './slash-commands.js';

describe('slash commands', () => {
  it('recognises the seed\'s commands, case-insensitively', () => {
    expect(parseSlashCommand('/stop')).toEqual({ name: 'stop' });
    expect(parseSlashCommand('  /PAUSE ')).toEqual({ name: 'pause' });
    expect(parseSlashCommand('/resume')).toEqual({ name: 'resume' });
    expect(parseSlashCommand('/new')).toEqual({ name: 'new', title: undefined });
    expect(parseSlashCommand('/new Trip to Lisbon')).toEqual({ name: 'new', title: 'Trip to Lisbon' });
    expect(parseSlashCommand('/confirm k7q2zp')).toEqual({ name: 'confirm', token: 'K7Q2ZP' });
    expect(parseSlashCommand('/deny K7Q2ZP')).toEqual({ name: 'deny', token: 'K7Q2ZP' });
  });

  it('keeps /pause and /resume for computer use and adds "turn" for the running turn', () => {
    expect(parseSlashCommand('/pause turn')).toEqual({ name: 'pause-turn' });
    expect(parseSlashCommand('/Resume  TURN')).toEqual({ name: 'resume-turn' });
    expect(parseSlashCommand('/pause everything')).toMatchObject({ name: 'invalid', message: '/pause takes nothing, or "turn".', hint: expect.stringContaining('/pause turn') });
  });

  it('refuses a missing token and an unknown command with a hint, and leaves ordinary text alone', () => {
    expect(parseSlashCommand('/confirm')).toMatchObject({ name: 'invalid', message: '/confirm needs the token shown on the folder request.' });
    expect(parseSlashCommand('/frobnicate now')).toMatchObject({ name: 'invalid', message: 'There is no /frobnicate command.', hint: expect.stringContaining('/help') });
    expect(parseSlashCommand('hello /stop')).toBeNull();
    expect(parseSlashCommand('//etc/hosts is a file')).toBeNull();
    expect(messageText('//etc/hosts is a file')).toBe('/etc/hosts is a file');
  });
});

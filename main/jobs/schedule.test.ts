import { describe, expect, it } from 'vitest';
import { isFermixError } from '../core/errors.js';
import { checkTimezone, firstRunAt, nextRunAfter, parseSchedule } from './schedule.js';

function refusal(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (error) {
    if (isFermixError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('the schedule grammar (reference §2.8)', () => {
  it('reads the three forms', () => {
    expect(parseSchedule('every 6 hours')).toEqual({ kind: 'interval', everyMs: 6 * 3_600_000 });
    expect(parseSchedule('every 1 minute')).toEqual({ kind: 'interval', everyMs: 60_000 });
    expect(parseSchedule('0 8 * * 1-5', 'Europe/Lisbon')).toEqual({ kind: 'cron', pattern: '0 8 * * 1-5', timezone: 'Europe/Lisbon' });
    expect(parseSchedule('2026-12-24T18:00:00+01:00')).toEqual({ kind: 'once', at: Date.parse('2026-12-24T17:00:00Z') });
  });

  it('refuses free English with the grammar in the error, and instants without an offset', () => {
    const english = refusal(() => parseSchedule('daily at 8am'));
    expect(english.code).toBe('invalid_schedule');
    expect(english.message).toContain('every N minutes|hours|days');
    expect(english.message).toContain('ISO 8601');
    expect(refusal(() => parseSchedule('2026-12-24T18:00:00')).code).toBe('invalid_schedule');
    expect(refusal(() => parseSchedule('61 8 * * *')).code).toBe('invalid_schedule');
    expect(refusal(() => parseSchedule('every 0 days')).code).toBe('invalid_schedule');
    expect(refusal(() => checkTimezone('Mars/Olympus')).code).toBe('invalid_timezone');
  });

  it('cron is DST-aware in the job timezone, Sunday is 0 and 7, and both day fields must match', () => {
    // 08:00 Lisbon is 08:00Z in winter and 07:00Z after the switch to summer time on 2026-03-29.
    const cron = parseSchedule('0 8 * * *', 'Europe/Lisbon');
    expect(new Date(firstRunAt(cron, Date.parse('2026-03-28T09:00:00Z'))!).toISOString()).toBe('2026-03-29T07:00:00.000Z');
    expect(new Date(firstRunAt(cron, Date.parse('2026-03-27T09:00:00Z'))!).toISOString()).toBe('2026-03-28T08:00:00.000Z');
    const sunday7 = firstRunAt(parseSchedule('0 0 * * 7'), Date.parse('2026-01-01T00:00:00Z'));
    const sunday0 = firstRunAt(parseSchedule('0 0 * * 0'), Date.parse('2026-01-01T00:00:00Z'));
    expect(sunday7).toBe(sunday0);
    expect(new Date(sunday0!).getUTCDay()).toBe(0);
    // The 13th AND a Friday: 2026-02-13 is the first Friday the 13th after New Year.
    expect(new Date(firstRunAt(parseSchedule('0 0 13 * 5'), Date.parse('2026-01-01T00:00:00Z'))!).toISOString()).toBe('2026-02-13T00:00:00.000Z');
  });

  it('an interval starts N after creation and advances past missed slots', () => {
    const every = parseSchedule('every 10 minutes');
    expect(firstRunAt(every, 1_000)).toBe(601_000);
    expect(nextRunAfter(every, 601_000, 601_000 + 25 * 60_000)).toBe(601_000 + 30 * 60_000);
    expect(nextRunAfter(parseSchedule('2026-12-24T18:00:00Z'), 0, 0)).toBeNull();
  });
});

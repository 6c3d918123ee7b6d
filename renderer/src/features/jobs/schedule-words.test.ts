import { describe, expect, it } from 'vitest';
import { scheduleInWords } from './schedule-words.js';

describe('scheduleInWords', () => {
  it('says the common cron shapes in words', () => {
    expect(scheduleInWords('0 8 * * 1-5')).toBe('Weekdays at 08:00');
    expect(scheduleInWords('30 7 * * *')).toBe('Every day at 07:30');
    expect(scheduleInWords('0 9 * * 1')).toBe('Mondays at 09:00');
    expect(scheduleInWords('0 10 * * 0,6')).toBe('Weekends at 10:00');
    expect(scheduleInWords('15 * * * *')).toBe('Every hour at :15');
    expect(scheduleInWords('0 6 1 * *')).toBe('Day 1 of every month at 06:00');
  });

  it('leaves everything else as written', () => {
    for (const schedule of ['every 6 hours', '*/5 * * * *', '0 8 * 1 *', '0 25 * * *', '0 8 1 * 1']) expect(scheduleInWords(schedule)).toBe(schedule);
  });
});
